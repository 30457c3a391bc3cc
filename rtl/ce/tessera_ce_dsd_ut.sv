// One microthread of the DSD engine (docs/isa.md 2.4, 6): the operation it runs (taken from the
// DSD instruction at issue: descriptors, length, scalar, completion), where it is (the next
// element and its addresses, results in flight, fdot partials and combine steps), and, each
// cycle, the plan of its next step: whether it is ready and why not (UtStatus.Wait), whether the
// step is an fdot combine step, a pair step or a split step, and whether an operand lies outside
// SRAM. It completes, ends and steps when the engine (tessera_ce_dsd_plan) says so; the step's
// datapath is the engine's (tessera_ce_dsd_step), fed by this microthread's view_o.
// The functional model's twin is the per-microthread part of model/ce/dsd.cpp.
module tessera_ce_dsd_ut (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                live_i,        // enabled, no fault recorded
  // whether the DSD instruction at issue issues on this microthread, and what it loads then
  // (tessera_ce_dsd_issue decodes it once for the engine; docs/isa.md 4.11)
  input  logic                                issue_i,
  input  tessera_pkg::dsd_issue_t          iss_i,
  // what the next step needs this cycle
  input  logic [tessera_pkg::NumColors-1:0]   head_data_i,   // a data wavelet heads color c
  input  logic [tessera_pkg::NumColors-1:0]   head_ctrl_i,   // a control wavelet heads color c
  input  logic [tessera_pkg::NumColors-1:0]   cred_i,        // an output credit (after a send)
  input  logic [1:0]                          sc_ports_i,    // read ports the scalar stage took
  input  logic [7:0]                          sc_banks_i,    // ... its banks and row
  input  logic [11:0]                         sc_row_i,
  input  logic                                sc_fmac_i,     // it takes the next FMAC slot
  input  logic                                split_i,       // a split step's second half is due
  input  logic                                split_me_i,    // ... and it is this microthread's
  input  logic                                spair_i,       // ... a pair step
  // the result due in this cycle, if it is this microthread's, and its fdot word
  input  logic                                due_i,
  input  logic                                due_dw_we_i,   // the FMAC output updates ...
  input  logic [2:0]                          due_dw_i,      // ... this fdot word ...
  input  logic [31:0]                         due_dw_data_i, // ... to this
  input  logic [tessera_pkg::NumTasks*2-1:0]  tkind_i,       // the task table's kinds
  // the FIFOs (tessera_ce_fifo), FIFO k at [15*k +: 15] and bit k
  input  logic [tessera_pkg::NumFifos*15-1:0] fifo_head_i,
  input  logic [tessera_pkg::NumFifos*15-1:0] fifo_tail_i,
  input  logic [tessera_pkg::NumFifos*15-1:0] fifo_count_i,
  input  logic [tessera_pkg::NumFifos*15-1:0] fifo_used_i,
  // the plan of its next step, and what completes or faults
  output logic                                ready_o,       // its next step may be taken
  output logic                                comp_o,        // its operation completes
  output logic                                cfault_o,      // ... into a task it cannot activate
  output logic                                range_o,       // its next element is outside SRAM
  output logic [4:0]                          comp_tid_o,    // the completion's task ...
  output logic                                comp_unbl_o,   // ... unblocked (else activated)
  output logic [15:0]                         comp_pc_o,     // ... and its operation's pc
  output logic [1:0]                          range_role_o,  // the first operand outside SRAM,
  output logic [3:0]                          range_dsr_o,   // its DSR and its element's
  output logic [31:0]                         range_addr_o,  // address
  output logic [15:0]                         pc_o,          // its operation's pc
  output tessera_pkg::dsd_ut_view_t        view_o,
  // what the engine decided (tessera_ce_dsd_plan)
  input  logic                                run_i,         // the engine acts this cycle
  input  logic                                may_end_i,     // no earlier fault stops it
  input  logic                                may_complete_i,
  input  logic                                turn_i,        // ready, but another one steps
  input  logic                                step_i,        // it takes the step
  // state
  output logic                                busy_o,
  output logic [2:0]                          in_flight_o,
  output logic                                starved_o,     // waits for fabin data or a FIFO, only
  output logic [tessera_pkg::NumColors-1:0]   reads_o,       // its fabin colors while busy
  output logic [31:0]                         status_o,      // UtStatus, UtInfo
  output logic [31:0]                         info_o,
  output logic [7*32-1:0]                     dw_o           // fdot words, w at [32*w +: 32]
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned AW    = 21;  // element addresses (signed; see docs/isa.md 4.11)
  localparam int unsigned NumDw = 7;   // fdot words: partials 0..3, combine results 4..6

  function automatic logic [2:0] stages(input logic [2:0] f);  // fdot combine steps (dsd_fmt_e)
    stages = f == DsdFmtF16 ? 3'd4 : 3'd3;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // State: the operation as issued (loaded from iss_i when one issues; per-role fields of width W
  // at [W*r +: W], as in tessera_pkg::dsd_issue_t) ...
  logic                 busy_q, busy_d;
  logic                 sync_q;              // the CE waits for it (UtStatus.Sync)
  logic [15:0]          upc_q;
  logic [6:0]           opc_q;
  logic [4:0]           op_q;                // dsd_op_e
  logic [2:0]           fmt_q;               // dsd_fmt_e
  logic [2:0]           form_q;              // dsd_form_e
  logic [2:0]           has_q;
  logic [3*2-1:0]       okind_q;             // per role: kind, 16-bit, color, DSR, stride
  logic [2:0]           ofifo_q;             // per role: a FIFO (number in ocol, capacity in l0)
  // (two derived bits, kept so that every cycle tests one bit instead of the fields)
  logic                 anyf_q;              // some operand is a FIFO: ofifo_q != 0
  logic                 stv_q;               // some operand can starve it: a fabin or a FIFO
  logic [2:0]           ohalf_q;
  logic [3*5-1:0]       ocol_q;
  logic [3*4-1:0]       odsr_q;
  logic [3*19-1:0]      oinc_q;              // signed: Stride * element size
  logic                 dctrl_q, didx_q;
  logic [15:0]          dbase_q;
  logic [31:0]          scal_q;
  logic [3:0]           sreg_q;
  logic [14:0]          n_q;
  logic                 unb_q;               // unbounded length
  logic [4:0]           tid_q;
  logic                 unbl_q;              // completion unblocks (else activates)
  logic                 dot_q, fmac_q, pairs_q;
  logic [NumColors-1:0] fabin_q;
  // mem4d operands (docs/isa.md 2.3), per role: the lengths of dimensions 0..2 and the byte
  // steps of dimensions 1..3 (dimension 0's is oinc)
  logic [2:0]           o4_q;
  logic [3*15-1:0]      l0_q;
  logic [3*11-1:0]      l1_q;
  logic [3*5-1:0]       l2_q;
  logic [3*19-1:0]      inc1_q;
  logic [3*19-1:0]      inc2_q;
  logic [3*19-1:0]      inc3_q;
  // ... and where it is
  logic [AW-1:0]        oaddr_q [3];         // signed: the address of element i
  logic [AW-1:0]        oaddr_d [3];
  logic [3*15-1:0]      c0_q, c0_d;          // mem4d: element i's index in dimensions 0..2 ...
  logic [3*11-1:0]      c1_q, c1_d;
  logic [3*5-1:0]       c2_q, c2_d;
  logic [3*AW-1:0]      row_q, row_d;       // ... and where its row, plane and block began
  logic [3*AW-1:0]      plane_q, plane_d;
  logic [3*AW-1:0]      block_q, block_d;
  logic [15:0]          i_q, i_d;
  logic                 ended_q, ended_d;    // takes no more element steps
  logic [2:0]           infl_q, infl_d;      // results in flight
  logic [2:0]           stage_q, stage_d;    // fdot: next combine step
  logic [31:0]          dw_q [NumDw];
  logic [31:0]          dw_d [NumDw];
  logic [8*2-1:0]       lrdy_q, lrdy_d;     // cycles until fdot partial lane j may be used
  logic [3*2-1:0]       crdy_q, crdy_d;     // cycles until combine result k may be used
  logic                 cnt_q, cnt_d;        // some lrdy or crdy counter is not zero
  ut_wait_e             wait_q, wait_d;      // UtStatus.Wait, UtInfo.Color, as last found
  logic [4:0]           wcol_q, wcol_d;

  // An idle microthread (not busy, nothing in flight, its fdot counters at zero) keeps its state
  // until an operation issues on it: `act` says its state may change in this cycle. The logic
  // below computes only for an active one and its registers load only then (a simulator skips
  // the idle ones; the values are the same either way).
  logic act;
  assign act = issue_i || busy_q || due_i || infl_q != '0 || cnt_q;

  // ---------------------------------------------------------------------------------------------
  // FIFO operands (docs/isa.md 2.3): the slot a source pops (the head) or the destination pushes
  // (the tail), its address, whether it is the last slot, and whether the FIFO stops the step
  // (a source empty, the destination full). From state alone, and read only while the
  // microthread is busy with a FIFO operand (anyf_q): a simulator computes them only then.
  // Synthesis computes them in every cycle, so that it infers no latch.
  logic [3*AW-1:0] fa;
  logic [2:0]      fwrap;
  logic            fblk;
  always_comb begin
    logic [2:0]  fk;
    logic [14:0] fp, fcap;
`ifdef SYNTHESIS
    begin
`else
    if (busy_q && anyf_q) begin
`endif
      fa    = '0;
      fwrap = '0;
      fblk  = 1'b0;
      fk    = '0;
      fp    = '0;
      fcap  = '0;
      for (int r = 0; r < 3; r++) begin
        fk   = ocol_q[5*r +: 3];
        fcap = l0_q[15*r +: 15];
        fp   = r == 0 ? fifo_tail_i[15*fk +: 15] : fifo_head_i[15*fk +: 15];
        if (ofifo_q[r]) begin
          fa[AW*r +: AW] = oaddr_q[r] + (ohalf_q[r] ? AW'({fp, 1'b0}) : AW'({fp, 2'b00}));
          fwrap[r]       = 16'(fp) + 16'd1 >= 16'(fcap);
          if (r == 0 ? fifo_used_i[15*fk +: 15] >= fcap : fifo_count_i[15*fk +: 15] == '0)
            fblk = 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The plan of the next step (docs/isa.md 6.8 item 4). It reads no SRAM data.
  logic                 ending;    // a control wavelet heads a fabin color: the operation ends
  logic                 ready, pl_comb, pl_split, pl_pair, pl_range;
  logic [1:0]           pl_rrole;  // the first operand outside SRAM, and its address
  logic [AW-1:0]        pl_raddr;
  ut_wait_e             why;
  logic [4:0]           wc;
  always_comb begin
    logic          r0, r1, in_ok, dot_ok;
    logic [AW-1:0] a [3];
    logic          mem [3];
    logic [7:0]    banks [3];
    logic [11:0]   rows [3];
    logic [2:0]    st, j;
    ending   = busy_q && !ended_q && (fabin_q & head_ctrl_i) != '0;
    ready    = 1'b0;
    pl_comb  = 1'b0;
    pl_split = 1'b0;
    pl_pair  = 1'b0;
    pl_range = 1'b0;
    pl_rrole = '0;
    pl_raddr = '0;
    why      = UtWaitReady;
    wc       = 5'(NoColor);
    // The temporaries below matter only to a busy microthread: an idle one (most of them, most
    // of the time) leaves them as they were and skips their defaults (docs/performance.md).
    // Synthesis gives them their defaults on every path, so that it infers no latch.
`ifdef SYNTHESIS
    begin
`else
    if (busy_q && !ending) begin
`endif
      r0     = 1'b0;
      r1     = 1'b0;
      in_ok  = 1'b0;
      dot_ok = 1'b1;
      st     = stage_q;
      j      = i_q[2:0];
      for (int r = 0; r < 3; r++) begin
        a[r]     = oaddr_q[r];
        mem[r]   = 1'b0;
        banks[r] = '0;
        rows[r]  = '0;
      end
      if (anyf_q)
        for (int r = 0; r < 3; r++) if (ofifo_q[r]) a[r] = fa[AW*r +: AW];
    end
    if (busy_q && !ending) begin
      if (split_me_i) begin
        why = UtWaitReady;  // its split step's second half is due
      end else if (ended_q) begin
        if (!dot_q || st == stages(fmt_q)) begin
          why = UtWaitDrain;
        end else begin
          // an fdot combine step (6.5): its inputs ready, the FMAC slot free
          pl_comb = 1'b1;
          if (fmt_q == DsdFmtF16) begin
            unique case (st)
              3'd0: in_ok = lrdy_q[7:0] == '0;   // partials 0..3 (2 bits each)
              3'd1: in_ok = lrdy_q[15:8] == '0;  // partials 4..7
              3'd2: in_ok = crdy_q[0 +: 2] == '0 && crdy_q[2 +: 2] == '0;
              default: in_ok = crdy_q[4 +: 2] == '0;
            endcase
          end else begin
            unique case (st)
              3'd0: in_ok = lrdy_q[0 +: 2] == '0 && lrdy_q[2 +: 2] == '0;
              3'd1: in_ok = lrdy_q[4 +: 2] == '0 && lrdy_q[6 +: 2] == '0;
              default: in_ok = crdy_q[0 +: 2] == '0 && crdy_q[2 +: 2] == '0;
            endcase
          end
          if (sc_fmac_i || !in_ok) why = UtWaitFmac;
          else                      ready = 1'b1;
        end
      end else begin
        // an element step: two 16-bit elements at once where every operand allows
        pl_pair = pairs_q && (unb_q || 17'(i_q) + 17'd1 < 17'(n_q)) && (!dot_q || !i_q[0]);
        for (int r = 0; r < 3; r++)
          if (has_q[r] && a[r][1:0] != 2'b00) pl_pair = 1'b0;
        // mem1d operands: inside SRAM, and their banks and rows
        for (int r = 0; r < 3; r++) begin
          logic [AW-1:0] lim;
          lim = (pl_pair || !ohalf_q[r]) ? AW'(SramBytes - 4) : AW'(SramBytes - 2);
          if (has_q[r] && okind_q[2*r +: 2] == 2'(DsdKindMem1d)) begin
            if ($signed(a[r]) < 0 || $signed(a[r]) > $signed(lim)) begin
              if (!pl_range) begin
                pl_range = 1'b1;
                pl_rrole = 2'(r);
                pl_raddr = a[r];
              end
            end else begin
              mem[r]   = 1'b1;
              banks[r] = (pl_pair || !ohalf_q[r]) ? 8'(2'b11) << a[r][3:1] : 8'(1) << a[r][3:1];
              rows[r]  = a[r][15:4];
            end
          end
        end
        // fabric operands: a data wavelet at each fabin head, a credit for fabout
        for (int r = 1; r < 3; r++) begin
          if (why == UtWaitReady && has_q[r] && okind_q[2*r +: 2] == 2'(DsdKindFabIn) &&
              !head_data_i[ocol_q[5*r +: 5]]) begin
            why = UtWaitFabIn;
            wc  = ocol_q[5*r +: 5];
          end
        end
        if (why == UtWaitReady && has_q[0] && okind_q[0 +: 2] == 2'(DsdKindFabOut) &&
            !cred_i[ocol_q[0 +: 5]]) begin
          why = UtWaitFabOut;
          wc  = ocol_q[0 +: 5];
        end
        if (why == UtWaitReady && anyf_q && fblk) why = UtWaitFifo;
        // reads: src0 and src1 through the ports and banks the scalar stage left
        if (why == UtWaitReady) begin
          logic f0, f1;
          r0 = mem[1];
          r1 = mem[2];
          f0 = !(sc_ports_i != 2'd0 && (banks[1] & sc_banks_i) != '0 && rows[1] != sc_row_i);
          f1 = !(sc_ports_i != 2'd0 && (banks[2] & sc_banks_i) != '0 && rows[2] != sc_row_i);
          if (r0 && r1 && (banks[1] & banks[2]) != '0 && rows[1] != rows[2]) begin
            pl_split = 1'b1;  // src0 now, src1 in the next cycle
            if (sc_ports_i == 2'd2 || !f0) why = UtWaitPort;
          end else if (3'(sc_ports_i) + 3'(r0) + 3'(r1) > 3'd2 || (r0 && !f0) || (r1 && !f1)) begin
            why = UtWaitPort;
          end
        end
        // the FMAC slot of the next cycle (a split step's is the one after)
        if (why == UtWaitReady && fmac_q && !pl_split && sc_fmac_i) why = UtWaitFmac;
        if (why == UtWaitReady && dot_q) begin
          // the partial this step updates (6.5), ready by the cycle the step counts as taken
          logic [1:0] lim;
          lim = pl_split ? 2'd1 : 2'd0;
          if (fmt_q == DsdFmtF32 || fmt_q == DsdFmtMix)  // one f32 partial
            dot_ok = lrdy_q[2*j[1:0] +: 2] <= lim;
          else if (pl_pair)
            dot_ok = lrdy_q[4*j[2:1] +: 2] <= lim &&
                     lrdy_q[4*j[2:1] + 2 +: 2] <= lim;
          else
            dot_ok = lrdy_q[2*j +: 2] <= lim;
          if (!dot_ok) why = UtWaitFmac;
        end
        if (why == UtWaitReady) ready = 1'b1;
      end
    end
    if (ending) begin
      why = UtWaitDrain;
      wc  = 5'(NoColor);
    end
  end
  assign ready_o = ready;
  assign range_o = pl_range;

  // The operation issued reduces into R[S] through fdot's partials: fdot, a sum (a dot product
  // with ones), a max or a min (docs/isa.md 6.5).
  // The identity of its partials: -0.0 for sums, the canonical NaN for max and min (a quiet
  // NaN loses in maximumNumber).
  logic [15:0] iss_id16;
  logic [31:0] iss_id32;
  assign iss_id16 = iss_i.minmax ? CanonicalNan16[15:0] : 16'h8000;
  assign iss_id32 = iss_i.minmax ? CanonicalNan32 : 32'h8000_0000;

  // ---------------------------------------------------------------------------------------------
  // Completion: its last result is due, it issues with nothing to do, or it ends with nothing in
  // flight. A completion into a task that is neither local nor control faults (TaskKind).
  logic [2:0]  infl_after;  // results in flight after the one due
  logic        comp;
  logic [4:0]  c_tid;
  logic        c_unbl;
  logic [15:0] c_pc;
  always_comb begin
    logic [1:0] kind;
    infl_after = infl_q - 3'(due_i);
    comp       = 1'b0;
    c_tid      = tid_q;
    c_unbl     = unbl_q;
    c_pc       = upc_q;
    cfault_o   = 1'b0;
    kind       = '0;
    if (act) begin
      comp = due_i && ended_q && infl_q == 3'd1 && (!dot_q || stage_q == stages(fmt_q));
      if (issue_i && iss_i.n0 && !iss_i.dot) begin
        comp   = 1'b1;
        c_tid  = iss_i.tid;
        c_unbl = iss_i.unbl;
        c_pc   = iss_i.pc;
      end
      if (ending && !dot_q && infl_after == '0) comp = 1'b1;
      kind     = tkind_i[32'(c_tid)*2 +: 2];
      cfault_o = comp && c_tid != 5'(NoTask) && !c_unbl && kind != 2'(TaskKindLocal) &&
                 kind != 2'(TaskKindControl);
    end
  end
  assign comp_o       = comp;
  assign comp_tid_o   = c_tid;
  assign comp_unbl_o  = c_unbl;
  assign comp_pc_o    = c_pc;
  assign range_role_o = pl_rrole;
  assign range_dsr_o  = odsr_q[4*pl_rrole +: 4];
  assign range_addr_o = 32'($signed(pl_raddr));

  // ---------------------------------------------------------------------------------------------
  // Next state, in the order of the cycle: the fdot counters count down, the result due, the
  // issue, the wait found, the end, the completion, the step.
  always_comb begin
    logic          pair;
    logic [AW-1:0] inc;
    pair = split_i ? spair_i : pl_pair;
    inc  = '0;
    // Where it is: its registers load only while it is active (act), and hold unless changed
    // below; zero while it is idle, for the same reason.
    busy_d  = 1'b0;
    i_d     = '0;
    ended_d = 1'b0;
    infl_d  = '0;
    stage_d = '0;
    wait_d  = UtWaitReady;
    wcol_d  = '0;
    cnt_d   = 1'b0;
    for (int r = 0; r < 3; r++) begin
      oaddr_d[r] = '0;
      c0_d[15*r +: 15]    = '0;
      c1_d[11*r +: 11]    = '0;
      c2_d[5*r +: 5]    = '0;
      row_d[AW*r +: AW]   = '0;
      plane_d[AW*r +: AW] = '0;
      block_d[AW*r +: AW] = '0;
    end
    for (int w = 0; w < NumDw; w++) dw_d[w] = '0;
    for (int k = 0; k < 8; k++) lrdy_d[2*k +: 2] = '0;
    for (int k = 0; k < 3; k++) crdy_d[2*k +: 2] = '0;

    if (act) begin
      busy_d  = busy_q;
      i_d     = i_q;
      ended_d = ended_q;
      infl_d  = infl_q;
      stage_d = stage_q;
      wait_d  = wait_q;
      wcol_d  = wcol_q;
      cnt_d   = cnt_q;
      for (int r = 0; r < 3; r++) begin
        oaddr_d[r] = oaddr_q[r];
        c0_d[15*r +: 15]    = c0_q[15*r +: 15];
        c1_d[11*r +: 11]    = c1_q[11*r +: 11];
        c2_d[5*r +: 5]    = c2_q[5*r +: 5];
        row_d[AW*r +: AW]   = row_q[AW*r +: AW];
        plane_d[AW*r +: AW] = plane_q[AW*r +: AW];
        block_d[AW*r +: AW] = block_q[AW*r +: AW];
      end
      for (int w = 0; w < NumDw; w++) dw_d[w] = dw_q[w];
      for (int k = 0; k < 8; k++) lrdy_d[2*k +: 2] = lrdy_q[2*k +: 2];
      for (int k = 0; k < 3; k++) crdy_d[2*k +: 2] = crdy_q[2*k +: 2];
    end

    if (act) begin
      if (live_i) begin
        for (int k = 0; k < 8; k++)
          if (lrdy_q[2*k +: 2] != 2'd0) lrdy_d[2*k +: 2] = lrdy_q[2*k +: 2] - 2'd1;
        for (int k = 0; k < 3; k++)
          if (crdy_q[2*k +: 2] != 2'd0) crdy_d[2*k +: 2] = crdy_q[2*k +: 2] - 2'd1;
      end

      // 1. the result due: its fdot word, one fewer in flight
      if (due_dw_we_i) dw_d[due_dw_i] = due_dw_data_i;
      if (live_i) infl_d = infl_after;

      // 3. the DSD instruction issues on this microthread (docs/isa.md 4.11)
      if (issue_i) begin
        busy_d  = !(iss_i.n0 && !iss_i.dot);
        i_d     = '0;
        ended_d = iss_i.n0;
        infl_d  = '0;
        wait_d  = UtWaitReady;
        wcol_d  = 5'(NoColor);
        stage_d = '0;
        for (int r = 0; r < 3; r++) begin
          oaddr_d[r] = iss_i.base[AW*r +: AW];
          c0_d[15*r +: 15]    = '0;
          c1_d[11*r +: 11]    = '0;
          c2_d[5*r +: 5]    = '0;
          row_d[AW*r +: AW]   = iss_i.base[AW*r +: AW];
          plane_d[AW*r +: AW] = iss_i.base[AW*r +: AW];
          block_d[AW*r +: AW] = iss_i.base[AW*r +: AW];
        end
        // reduction partials: p0 = the accumulator, the others the combine's identity: -0.0 for
        // sums, the canonical NaN for max and min (docs/isa.md 6.5)
        for (int k = 0; k < 8; k++) lrdy_d[2*k +: 2] = '0;
        for (int k = 0; k < 3; k++) crdy_d[2*k +: 2] = '0;
        if (iss_i.fmt == DsdFmtF16) begin
          dw_d[0] = {iss_id16, iss_i.scal[15:0]};
          for (int k = 1; k < 4; k++) dw_d[k] = {iss_id16, iss_id16};
        end else begin
          dw_d[0] = iss_i.scal;
          for (int k = 1; k < 4; k++) dw_d[k] = iss_id32;
        end
      end

      // the wait the plan found (UtStatus.Wait, UtInfo.Color)
      if (run_i && busy_q) begin
        wait_d = turn_i ? UtWaitTurn : why;
        wcol_d = wc;
      end
      // 4. the end by a control wavelet, the completion, the step
      if (may_end_i && ending) ended_d = 1'b1;
      if (may_complete_i && comp) begin
        busy_d = 1'b0;
        wait_d = UtWaitReady;
        wcol_d = 5'(NoColor);
      end
      // a split step's first half changes nothing here
      if (step_i && !(!split_i && pl_split)) begin
        if (pl_comb && !split_i) begin
          // an fdot combine step (6.5): its result is an input of a later one, or R[S]
          if (stage_q != stages(fmt_q) - 3'd1) crdy_d[2*stage_q[1:0] +: 2] = 2'(FmacLatency - 1);
          stage_d = stage_q + 3'd1;
          infl_d  = infl_after + 3'd1;
        end else begin
          // an element step: its result goes into flight, the next element
          if (dot_q) begin
            if (fmt_q == DsdFmtF32 || fmt_q == DsdFmtMix) begin
              lrdy_d[2*i_q[1:0] +: 2] = 2'(FmacLatency - 1);
            end else if (pair) begin
              lrdy_d[4*i_q[2:1] +: 2] = 2'(FmacLatency - 1);
              lrdy_d[4*i_q[2:1] + 2 +: 2] = 2'(FmacLatency - 1);
            end else begin
              lrdy_d[2*i_q[2:0] +: 2] = 2'(FmacLatency - 1);
            end
          end
          infl_d = infl_after + 3'd1;
          i_d    = i_q + (pair ? 16'd2 : 16'd1);
          for (int r = 0; r < 3; r++) begin
            inc = AW'($signed(oinc_q[19*r +: 19]));
            if (pair) inc = {inc[AW-2:0], 1'b0};
            oaddr_d[r] = oaddr_q[r] + inc;
            // mem4d (never in pairs): dimension 0 fastest; at the end of a dimension the next
            // one's start moves by its step and the inner ones start there. A length 0 counts as 1.
            if (o4_q[r]) begin
              if (16'(c0_q[15*r +: 15]) + 16'd1 < 16'(l0_q[15*r +: 15])) begin
                c0_d[15*r +: 15] = c0_q[15*r +: 15] + 15'd1;
              end else begin
                c0_d[15*r +: 15] = '0;
                if (12'(c1_q[11*r +: 11]) + 12'd1 < 12'(l1_q[11*r +: 11])) begin
                  c1_d[11*r +: 11]  = c1_q[11*r +: 11] + 11'd1;
                  row_d[AW*r +: AW] = row_q[AW*r +: AW] + AW'($signed(inc1_q[19*r +: 19]));
                end else begin
                  c1_d[11*r +: 11] = '0;
                  if (6'(c2_q[5*r +: 5]) + 6'd1 < 6'(l2_q[5*r +: 5])) begin
                    c2_d[5*r +: 5]    = c2_q[5*r +: 5] + 5'd1;
                    plane_d[AW*r +: AW] = plane_q[AW*r +: AW] + AW'($signed(inc2_q[19*r +: 19]));
                  end else begin
                    c2_d[5*r +: 5]    = '0;
                    block_d[AW*r +: AW] = block_q[AW*r +: AW] + AW'($signed(inc3_q[19*r +: 19]));
                    plane_d[AW*r +: AW] = block_d[AW*r +: AW];
                  end
                  row_d[AW*r +: AW] = plane_d[AW*r +: AW];
                end
                oaddr_d[r] = row_d[AW*r +: AW];
              end
            end
          end
          if (!unb_q && 17'(i_q) + (pair ? 17'd2 : 17'd1) >= 17'(n_q)) ended_d = 1'b1;
        end
      end
      cnt_d = 1'b0;
      for (int k = 0; k < 8; k++) if (lrdy_d[2*k +: 2] != '0) cnt_d = 1'b1;
      for (int k = 0; k < 3; k++) if (crdy_d[2*k +: 2] != '0) cnt_d = 1'b1;
    end
  end

  // The operation as issued changes only when one issues; where it is, only while active.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q  <= 1'b0;
      upc_q   <= '0;
      opc_q   <= '0;
      op_q    <= 5'(DsdOpAdd);
      fmt_q   <= 3'(DsdFmtF32);
      form_q  <= 3'(DsdFormV3);
      has_q   <= '0;
      dctrl_q <= 1'b0;
      didx_q  <= 1'b0;
      dbase_q <= '0;
      scal_q  <= '0;
      sreg_q  <= '0;
      n_q     <= '0;
      unb_q   <= 1'b0;
      tid_q   <= '0;
      unbl_q  <= 1'b0;
      dot_q   <= 1'b0;
      fmac_q  <= 1'b0;
      pairs_q <= 1'b0;
      fabin_q <= '0;
      anyf_q  <= 1'b0;
      stv_q   <= 1'b0;
      for (int r = 0; r < 3; r++) begin
        okind_q[2*r +: 2] <= '0;
        ofifo_q[r] <= 1'b0;
        ohalf_q[r] <= 1'b0;
        ocol_q[5*r +: 5]  <= '0;
        odsr_q[4*r +: 4]  <= '0;
        oinc_q[19*r +: 19]  <= '0;
        o4_q[r]    <= 1'b0;
        l0_q[15*r +: 15]    <= '0;
        l1_q[11*r +: 11]    <= '0;
        l2_q[5*r +: 5]    <= '0;
        inc1_q[19*r +: 19]  <= '0;
        inc2_q[19*r +: 19]  <= '0;
        inc3_q[19*r +: 19]  <= '0;
      end
    end else if (issue_i) begin
      sync_q  <= iss_i.sync;
      upc_q   <= iss_i.pc;
      opc_q   <= iss_i.opc;
      op_q    <= iss_i.op;
      fmt_q   <= iss_i.fmt;
      form_q  <= iss_i.form;
      has_q   <= iss_i.has;
      dctrl_q <= iss_i.dctrl;
      didx_q  <= iss_i.didx;
      dbase_q <= iss_i.dbase;
      scal_q  <= iss_i.scal;
      sreg_q  <= iss_i.sreg;
      n_q     <= iss_i.n;
      unb_q   <= iss_i.unb;
      tid_q   <= iss_i.tid;
      unbl_q  <= iss_i.unbl;
      dot_q   <= iss_i.dot;
      fmac_q  <= iss_i.fmac;
      pairs_q <= iss_i.pairs;
      fabin_q <= iss_i.fabin;
      okind_q <= iss_i.okind;
      ofifo_q <= iss_i.ofifo;
      anyf_q  <= iss_i.ofifo != '0;
      stv_q   <= iss_i.ofifo != '0 || iss_i.fabin != '0;
      ohalf_q <= iss_i.ohalf;
      ocol_q  <= iss_i.ocol;
      odsr_q  <= iss_i.odsr;
      oinc_q  <= iss_i.oinc;
      o4_q    <= iss_i.o4;
      l0_q    <= iss_i.l0;
      l1_q    <= iss_i.l1;
      l2_q    <= iss_i.l2;
      inc1_q  <= iss_i.inc1;
      inc2_q  <= iss_i.inc2;
      inc3_q  <= iss_i.inc3;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      i_q     <= '0;
      ended_q <= 1'b0;
      infl_q  <= '0;
      stage_q <= '0;
      wait_q  <= UtWaitReady;
      wcol_q  <= '0;
      cnt_q   <= 1'b0;
      for (int r = 0; r < 3; r++) begin
        oaddr_q[r] <= '0;
        c0_q[15*r +: 15]    <= '0;
        c1_q[11*r +: 11]    <= '0;
        c2_q[5*r +: 5]    <= '0;
        row_q[AW*r +: AW]   <= '0;
        plane_q[AW*r +: AW] <= '0;
        block_q[AW*r +: AW] <= '0;
      end
      for (int w = 0; w < NumDw; w++) dw_q[w] <= '0;
      for (int k = 0; k < 8; k++) lrdy_q[2*k +: 2] <= '0;
      for (int k = 0; k < 3; k++) crdy_q[2*k +: 2] <= '0;
    end else if (act) begin
      busy_q  <= busy_d;
      i_q     <= i_d;
      ended_q <= ended_d;
      infl_q  <= infl_d;
      stage_q <= stage_d;
      wait_q  <= wait_d;
      wcol_q  <= wcol_d;
      cnt_q   <= cnt_d;
      for (int r = 0; r < 3; r++) begin
        oaddr_q[r] <= oaddr_d[r];
        c0_q[15*r +: 15]    <= c0_d[15*r +: 15];
        c1_q[11*r +: 11]    <= c1_d[11*r +: 11];
        c2_q[5*r +: 5]    <= c2_d[5*r +: 5];
        row_q[AW*r +: AW]   <= row_d[AW*r +: AW];
        plane_q[AW*r +: AW] <= plane_d[AW*r +: AW];
        block_q[AW*r +: AW] <= block_d[AW*r +: AW];
      end
      for (int w = 0; w < NumDw; w++) dw_q[w] <= dw_d[w];
      for (int k = 0; k < 8; k++) lrdy_q[2*k +: 2] <= lrdy_d[2*k +: 2];
      for (int k = 0; k < 3; k++) crdy_q[2*k +: 2] <= crdy_d[2*k +: 2];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs: the view the step takes, the registers the CE reads
  always_comb begin
    view_o = '0;
    if (busy_q) begin
      view_o.op     = op_q;
      view_o.fmt    = fmt_q;
      view_o.form   = form_q;
      view_o.dot    = dot_q;
      view_o.fmac   = fmac_q;
      view_o.has    = has_q;
      view_o.dst    = {okind_q[0 +: 2], 2'b00, ohalf_q[0], ocol_q[0 +: 5], oaddr_q[0][15:0]};
      view_o.ctrl   = dctrl_q;
      view_o.idx    = didx_q;
      view_o.base   = dbase_q;
      view_o.src0   = {okind_q[2 +: 2], 2'b00, ohalf_q[1], ocol_q[5 +: 5], oaddr_q[1][15:0]};
      view_o.src1   = {okind_q[4 +: 2], 2'b00, ohalf_q[2], ocol_q[10 +: 5], oaddr_q[2][15:0]};
      view_o.scalar = scal_q;
      view_o.sreg   = sreg_q;
      view_o.i      = i_q;
      view_o.stage  = stage_q;
      view_o.comb   = pl_comb;
      view_o.split  = pl_split;
      view_o.pair   = pl_pair;
      if (anyf_q) begin
        view_o.fifos     = 1'b1;
        view_o.dst.fifo  = ofifo_q[0];
        view_o.src0.fifo = ofifo_q[1];
        view_o.src1.fifo = ofifo_q[2];
        view_o.dst.wrap  = fwrap[0];
        view_o.src0.wrap = fwrap[1];
        view_o.src1.wrap = fwrap[2];
        if (ofifo_q[0]) view_o.dst.addr = fa[0 +: 16];
        if (ofifo_q[1]) view_o.src0.addr = fa[AW +: 16];
        if (ofifo_q[2]) view_o.src1.addr = fa[2*AW +: 16];
      end
    end
  end

  always_comb begin
    status_o = '0;
    info_o   = '0;
    if (busy_q) begin
      status_o[UtStatusBusyLsb]        = 1'b1;
      status_o[UtStatusSyncLsb]        = sync_q;
      status_o[UtStatusWaitLsb +: 3]   = wait_q;
      status_o[UtStatusOpcodeLsb +: 7] = opc_q;
      status_o[UtStatusDoneLsb +: 15]  = i_q[14:0];
      info_o[UtInfoPcLsb +: 16]        = upc_q;
      info_o[UtInfoColorLsb +: 5]      = wcol_q;
      info_o[UtInfoTidLsb +: 5]        = tid_q;
      info_o[UtInfoUnblockLsb]         = unbl_q;
    end
  end

  assign busy_o      = busy_q;
  assign pc_o        = upc_q;
  assign in_flight_o = infl_q;
  // CeStatus.Settled's part (docs/isa.md 3.2): busy with element steps to take (not ended, no
  // split step due), nothing of it in flight, no control wavelet ending it, and some fabin
  // color's queue empty or a FIFO operand stopping it (a source empty, the destination full):
  // UtWait FabIn or Fifo, found from state alone (`why` also weighs this cycle's ports, which
  // would loop through the status register). Only an operation with a fabin or FIFO operand can
  // starve: testing that first keeps the rest out of every other cycle's evaluation (a simulator
  // evaluates this whenever the microthread's state moves).
  always_comb begin
    starved_o = 1'b0;
    if (stv_q) begin
      starved_o = busy_q && !ended_q && !split_me_i && infl_q == '0 && !cnt_q &&
                  (fabin_q & head_ctrl_i) == '0 &&
                  ((fabin_q & ~head_data_i) != '0 || (anyf_q && fblk));
    end
  end
  assign reads_o     = busy_q ? fabin_q : '0;
  for (genvar w = 0; w < NumDw; w++) begin : g_dw
    assign dw_o[32*w +: 32] = dw_q[w];
  end

  // ---------------------------------------------------------------------------------------------
  // Assertions: a busy microthread holds a valid plan of its operation
  `include "tessera_assert.svh"
`ifndef SYNTHESIS
  logic plan_ok;
  always_comb begin
    plan_ok = 1'b1;
    if (busy_q)
      plan_ok = (!has_q[0] || okind_q[0 +: 2] == 2'(DsdKindMem1d) || okind_q[0 +: 2] == 2'(DsdKindFabOut)) &&
                (!has_q[1] || okind_q[2 +: 2] == 2'(DsdKindMem1d) || okind_q[2 +: 2] == 2'(DsdKindFabIn)) &&
                (!has_q[2] || okind_q[4 +: 2] == 2'(DsdKindMem1d) || okind_q[4 +: 2] == 2'(DsdKindFabIn)) &&
                (unb_q || {1'b0, i_q} <= 17'(n_q)) &&
                (!dot_q || stage_q <= stages(fmt_q));
  end
  `ASSERT_IF(BusyUtHasValidPlan, busy_q, plan_ok)
`endif

endmodule
