// Types the compute engine's modules share (rtl/ce), hand-written: the CE's requests to and
// responses from the PE's SRAM and FMAC (tessera_pe joins them to tessera_sram and tessera_fmac),
// what the scalar stage does in a cycle, and what the DSD engine keeps of a step. Included at the
// end of the generated package tessera_pkg (never on its own), so that these types may hold its
// enums: Yosys 0.23 reads no type of one package inside another.


  // ---- SRAM (tessera_sram: 48 KiB as 32-bit words) ----

  // A write of the word at addr, bytes whose enable is set.
  typedef struct packed {
    logic        we;
    logic [13:0] addr;
    logic [3:0]  be;
    logic [31:0] data;
  } sram_wr_t;

  // What the CE asks of the SRAM in a cycle: the fetch word, two data words, one write.
  typedef struct packed {
    logic [13:0] fetch_addr;
    logic [13:0] rd0_addr;
    logic [13:0] rd1_addr;
    sram_wr_t    wr;
  } sram_req_t;

  // The words read, in the same cycle (the read ports are combinational; a write lands at the
  // end of the cycle).
  typedef struct packed {
    logic [31:0] fetch_data;
    logic [31:0] rd0_data;
    logic [31:0] rd1_data;
  } sram_rsp_t;

  // The DSD engine's reads: each port it takes, and the word address.
  typedef struct packed {
    logic        rd0_en;
    logic [13:0] rd0_addr;
    logic        rd1_en;
    logic [13:0] rd1_addr;
  } sram_rd_t;

  // ---- FMAC (tessera_fmac) ----

  // An operation issued into the FMAC slot of this cycle.
  typedef struct packed {
    logic        valid;
    logic [3:0]  op;    // tessera_pkg::fp_op_e
    logic        fmt;   // tessera_pkg::fp_fmt_e
    logic [31:0] a;
    logic [31:0] b;
    logic [31:0] c;
  } fmac_req_t;

  // The result of the operation issued FmacLatency cycles ago.
  typedef struct packed {
    logic        valid;
    logic [31:0] result;
    logic [9:0]  flags;   // lane l at [5*l +: 5], tessera_pkg::fp_flag_e bits
  } fmac_rsp_t;

  // ---- Registers ----

  // A write of a general register.
  typedef struct packed {
    logic        we;
    logic [3:0]  addr;
    logic [31:0] data;
  } gpr_wr_t;

  // A write of a descriptor register.
  typedef struct packed {
    logic        we;
    logic [3:0]  addr;
    logic [63:0] data;
  } dsr_wr_t;

  // A write of a memory-mapped register (docs/isa.md 3.2): a CE store, or the host's back door.
  typedef struct packed {
    logic        we;
    logic [5:0]  id;      // tessera_pkg::mmio_reg_e (its width)
    logic [4:0]  idx;     // element of a register array
    logic        router;  // the router holds it
    logic [31:0] data;
  } reg_wr_t;

  // What a task instruction does to the task state (docs/isa.md 4.9, 5).
  typedef struct packed {
    logic [31:0] activate;  // TaskActive bits set
    logic [31:0] block;     // TaskBlocked bits set
    logic [31:0] unblock;   // ... and cleared
    logic        arg_we;    // TaskArg[arg_task] = arg
    logic [4:0]  arg_task;
    logic [15:0] arg;
  } task_fx_t;

  // Where the scalar stage goes next, past pc + 4.
  typedef struct packed {
    logic        tend;      // the task ends
    logic        taken;     // a taken branch or jump ...
    logic [15:0] target;    // ... to here
  } flow_t;

  // A scalar FP instruction: its operation for the FMAC slot of the next cycle, and where its
  // result goes FmacLatency cycles later.
  typedef struct packed {
    logic        valid;
    logic [3:0]  op;        // tessera_pkg::fp_op_e
    logic        fmt;       // tessera_pkg::fp_fmt_e
    logic [3:0]  rd;
    logic        half;      // an f16 two-lane operation: lane 0 kept, zero-extended
    logic [31:0] a;
    logic [31:0] b;
    logic [31:0] c;
  } fp_issue_t;

  // A fault as FaultStatus, FaultPc, FaultAddr and FaultInfo record it (docs/isa.md 7).
  typedef struct packed {
    ce_fault_e   cause;
    logic [15:0] pc;
    logic [31:0] addr;
    logic [31:0] info;
  } ce_fault_t;

  // ---- DSD engine ----

  // One operand of a microthread's operation, as its next step finds it.
  typedef struct packed {
    logic [1:0]  kind;   // tessera_pkg::dsd_kind_e, bits 1:0 (Mem1d, FabIn, FabOut; a FIFO as Mem1d)
    logic        fifo;   // a FIFO: color is its number, addr its head's (src) or tail's (dst) slot
    logic        wrap;   // ... and that slot is its last: the next one is slot 0
    logic        half;   // 16-bit elements
    logic [4:0]  color;  // fabin, fabout
    logic [15:0] addr;   // mem1d: the byte address of the next element (bits 15:0)
  } dsd_opnd_t;

  // A microthread as the step takes it (tessera_ce_dsd_ut -> tessera_ce_dsd_plan, _step): the
  // operation, where it is, and the plan of its next step.
  typedef struct packed {
    logic [4:0]  op;      // tessera_pkg::dsd_op_e
    logic [2:0]  fmt;     // tessera_pkg::dsd_fmt_e
    logic [2:0]  form;    // tessera_pkg::dsd_form_e
    logic        dot;     // fdot
    logic        fmac;    // every element step uses the FMAC
    logic [2:0]  has;     // bit r: an operand in role r (0 dst, 1 src0, 2 src1)
    logic        fifos;   // some operand is a FIFO
    dsd_opnd_t   dst;
    logic        ctrl;    // dst fabout: control wavelets
    logic        idx;     // dst fabout, 16-bit: data[31:16] = base + i
    logic [15:0] base;    // dst's Base
    dsd_opnd_t   src0;
    dsd_opnd_t   src1;
    logic [31:0] scalar;  // R[S] at issue
    logic [3:0]  sreg;    // S
    logic [15:0] i;       // the next element
    logic [2:0]  stage;   // fdot: the next combine step
    logic        comb;    // plan: the next step is an fdot combine step
    logic        split;   // plan: src0 now, src1 in the next cycle
    logic        pair;    // plan: a step over two 16-bit elements
  } dsd_ut_view_t;

  // What a DSD instruction that issues loads into its microthread (tessera_ce_dsd_issue decodes
  // it once for the engine; tessera_ce_dsd_ut loads it): the operation, and per operand role r
  // (0 dst, 1 src0, 2 src1) a field of width W at [W*r +: W]. All zero when nothing issues.
  typedef struct packed {
    logic        sync;    // the CE waits for it (UtStatus.Sync)
    logic        unbl;    // its completion unblocks (else activates)
    logic [4:0]  tid;     // its completion's task
    logic [15:0] pc;
    logic [6:0]  opc;
    logic [4:0]  op;      // tessera_pkg::dsd_op_e
    logic [2:0]  fmt;     // tessera_pkg::dsd_fmt_e
    logic [2:0]  form;    // tessera_pkg::dsd_form_e
    logic [2:0]  has;     // bit r: an operand in role r
    logic [14:0] n;       // length
    logic        n0;      // length zero
    logic        unb;     // unbounded length
    logic        dot;     // a reduction: fdot, a sum, a max or a min (docs/isa.md 6.5)
    logic        minmax;  // ... a max or a min
    logic        fmac;    // every element step uses the FMAC
    logic        pairs;   // steps may take two 16-bit elements
    logic [31:0] scal;    // R[S]
    logic [3:0]  sreg;    // S
    logic        dctrl;   // dst's Ctrl, Idx and Base
    logic        didx;
    logic [15:0] dbase;
    logic [23:0] fabin;   // its fabin colors (tessera_pkg::NumColors)
    logic [2:0]  o4;      // role r: mem4d
    logic [5:0]  okind;   // role r: tessera_pkg::dsd_kind_e bits 1:0 (mem4d, FIFO as mem1d), W 2
    logic [2:0]  ofifo;   // role r: a FIFO (its number in ocol, its capacity in l0)
    logic [2:0]  ohalf;   // role r: 16-bit elements
    logic [14:0] ocol;    // role r: color, W 5
    logic [11:0] odsr;    // role r: DSR, W 4
    logic [56:0] oinc;    // role r: signed byte step of dimension 0 (Stride * size), W 19
    logic [44:0] l0;      // role r: mem4d lengths of dimensions 0..2, W 15, 11, 5
    logic [32:0] l1;
    logic [14:0] l2;
    logic [56:0] inc1;    // role r: mem4d byte steps of dimensions 1..3, W 19
    logic [56:0] inc2;
    logic [56:0] inc3;
    logic [62:0] base;    // role r: the first element's address (signed), W 21
  } dsd_issue_t;

  // The engine's FMAC slot: the operation of the step taken in the previous cycle. An operand
  // with *_ref set is fdot word *_w of microthread ut, read in the slot's own cycle.
  typedef struct packed {
    logic        valid;
    logic [3:0]  op;      // tessera_pkg::fp_op_e
    logic        fmt;     // tessera_pkg::fp_fmt_e
    logic [31:0] a;
    logic [31:0] b;
    logic [31:0] c;
    logic [2:0]  ut;
    logic        a_ref;
    logic        b_ref;
    logic        c_ref;
    logic        b_hi;    // b is bits 31:16 of its word (the last f16 combine step)
    logic [2:0]  a_w;
    logic [2:0]  b_w;
    logic [2:0]  c_w;
  } dsd_slot_t;

  // What a step's result does when it is due, DsdLatency cycles after the step: an fdot
  // partial or combine result (None) only updates its fdot word.
  typedef enum logic [1:0] {
    DsdResNone = 2'd0,
    DsdResSram = 2'd1,
    DsdResWave = 2'd2,
    DsdResGpr  = 2'd3
  } dsd_res_kind_e;

  typedef struct packed {
    logic        valid;
    logic [2:0]  ut;
    dsd_res_kind_e kind;
    logic        fmac;    // the value is the FMAC's output
    logic        cmp;     // ... a compare's bit, made a mask of the value's width
    logic        cmp_inv; // ... inverted first (ne)
    logic [1:0]  lanes;   // FMAC lanes whose flags count
    logic [4:0]  flags;   // flags found at the step (the conversions of fmachs)
    logic        half;    // a 16-bit value, in bits 15:0
    logic [13:0] addr;    // SRAM: word address
    logic [3:0]  be;      //   byte enables
    logic        fifo;    //   a push into FIFO color[2:0]: one more element to pop
    logic        ctrl;    // wavelet: control
    logic [4:0]  color;   //   color (SRAM: the FIFO)
    logic [15:0] hi;      //   data[31:16] of a 16-bit value
    logic [3:0]  gpr;     // GPR: the register
    logic [31:0] value;   // the value of a step without the FMAC
    logic        dot;     // the FMAC output updates fdot word dw, lanes dm
    logic [2:0]  dw;
    logic [1:0]  dm;
  } dsd_result_t;
