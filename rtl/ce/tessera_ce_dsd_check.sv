// The issue checks of a DSD instruction (docs/isa.md 4.11), combinational: over its operands
// dst, src0, src1 (those its form has), each check names the operands that fail it, and the
// first failing check in the order below, on its first failing operand, is the fault:
//   1. not a descriptor (DsdInvalid; FaultInfo.Index = DsdWhy: kind, element type, reserved
//      bits, a mem4d in an odd register, a FIFO of capacity 0 or 0x7FFF or number 8 and up;
//      then, on the operand that sets N, a mem4d whose four lengths multiply to more than 0x7FFE)
//   2. a kind the role does not take (DsdInvalid, Index 3)
//   3. two fabin sources on one color, or two FIFO sources on one FIFO (DsdInvalid on src1,
//      Index 4)
//   4. an element type outside the role's class (DsdType)
//   5. a color this PE cannot send on (fabout) or receive on (fabin) (BadColor)
//   6. a mem1d, mem4d or FIFO base not aligned to its elements (DsdMisaligned)
// It also gives N, the operation's length: the Length of src0, else src1, else dst, passing over
// FIFOs (FIFOs only: unbounded), or for a mem4d there the product of its four lengths.
// Computed only while a DSD instruction is at issue (active_i); otherwise no fault and N = 0.
// The functional model's twin is Ce::IssueDsd (model/ce/dsd.cpp).
module tessera_ce_dsd_check (
  input  logic                              active_i,  // a DSD instruction is at issue
  input  logic [31:0]                       insn_i,    // format D
  input  tessera_pkg::isa_dec_t             dec_i,
  input  logic [15:0]                       pc_i,
  input  logic [63:0]                       dsr_dst_i,
  input  logic [63:0]                       dsr_src0_i,
  input  logic [63:0]                       dsr_src1_i,
  input  logic [63:0]                       ext_dst_i,   // the odd DSR of each role's pair
  input  logic [63:0]                       ext_src0_i,
  input  logic [63:0]                       ext_src1_i,
  input  logic [tessera_pkg::NumColors-1:0] can_send_i,
  input  logic [tessera_pkg::NumColors-1:0] can_recv_i,
  output logic [14:0]                       len_o,
  output logic                              fault_o,
  output tessera_pkg::ce_fault_t         fault_rec_o
);
  `include "tessera_pkg_use.svh"

  function automatic logic type_fits(input elem_class_e c, input logic [2:0] e);
    logic ok;
    unique case (c)
      ElemClassF32: ok = e == 3'(ElemTypeF32);
      ElemClassF16: ok = e == 3'(ElemTypeF16);
      ElemClassI32: ok = e == 3'(ElemTypeI32) || e == 3'(ElemTypeU32);
      ElemClassI16: ok = e == 3'(ElemTypeI16) || e == 3'(ElemTypeU16);
      ElemClassX32: ok = !e[0];
      ElemClassX16: ok = e[0];
      default:      ok = 1'b1;
    endcase
    type_fits = ok;
  endfunction

  // The lowest set bit of a role mask, as a role index.
  function automatic logic [1:0] first_role(input logic [1:0] m);  // bits 1:0 of a mask
    first_role = m[0] ? 2'd0 : m[1] ? 2'd1 : 2'd2;
  endfunction

  // FaultInfo of an operand: its role, no microthread, its DSR, the index given.
  function automatic logic [31:0] info(input logic [1:0] role, input logic [3:0] dsr_num,
                                       input logic [14:0] index);
    logic [31:0] v;
    v = '0;
    v[FaultInfoRoleLsb +: 3]   = 3'(role) + 3'd1;
    v[FaultInfoUtLsb +: 4]     = 4'hF;
    v[FaultInfoDsrLsb +: 4]    = dsr_num;
    v[FaultInfoIndexLsb +: 15] = index;
    info = v;
  endfunction

  // Operands by role (0 dst, 1 src0, 2 src1). The decoded fields as plain signals (Yosys 0.23
  // cannot size a struct member in a case).
  tessera_pkg::insn_d_t d;
  dsd_form_e            form;
  elem_class_e          cls [3];
  logic [63:0]          raw [3];
  logic [63:0]          ext [3];
  logic [3:0]           dsr [3];
  logic [2:0]           has;
  logic [1:0]           lead;  // the role that sets N ...
  logic                 lead_none;  // ... none: every operand is a FIFO
  logic [2:0]           fifo;  // a FIFO in role r
  always_comb begin
    d      = insn_i;
    form   = dec_i.dsd_form;
    cls[0] = dec_i.ty_dst;
    cls[1] = dec_i.ty_src0;
    cls[2] = dec_i.ty_src1;
    raw[0] = dsr_dst_i;
    raw[1] = dsr_src0_i;
    raw[2] = dsr_src1_i;
    ext[0] = ext_dst_i;
    ext[1] = ext_src0_i;
    ext[2] = ext_src1_i;
    dsr[0] = d.dst;
    dsr[1] = d.src0;
    dsr[2] = d.src1;
    has    = {DsdFormHasSrc1[form], DsdFormHasSrc0[form], DsdFormHasDst[form]};
    // (read only while an instruction is at issue: a simulator computes them only then;
    // synthesis in every cycle, so that it infers no latch)
`ifdef SYNTHESIS
    begin
`else
    if (active_i) begin
`endif
      for (int k = 0; k < 3; k++) fifo[k] = has[k] && raw[k][DsdKindLsb +: 3] == 3'(DsdKindFifo);
      lead      = (has[1] && !fifo[1]) ? 2'd1 : (has[2] && !fifo[2]) ? 2'd2 : 2'd0;
      lead_none = has == fifo;
    end
  end

  // N: the lead's Length, or a mem4d lead's four lengths multiplied (up to 36 bits).
  logic        lead4;
  logic [35:0] count;
  logic        too_many;
  always_comb begin
    lead4    = 1'b0;
    count    = '0;
    too_many = 1'b0;
    len_o    = '0;
    if (active_i) begin
      lead4    = raw[lead][DsdKindLsb +: 3] == 3'(DsdKindMem4d);
      count    = 36'(raw[lead][DsdLengthLsb +: 15]) * 36'(ext[lead][Dsd4xLen1Lsb +: 11]) *
                 36'(ext[lead][Dsd4xLen2Lsb +: 5]) * 36'(raw[lead][DsdColorLsb +: 5]);
      too_many = lead4 && count > 36'(UnboundedLength) - 36'd1;
      len_o    = lead_none ? 15'(UnboundedLength) :
                 lead4 ? count[14:0] : raw[lead][DsdLengthLsb +: 15];
    end
  end

  // Each check, per role (bit r).
  logic [2:0] bad_kind, bad_elem, rsvd;  // 1: not a descriptor
  logic [2:0] odd4;                      //    a mem4d in an odd register
  logic [2:0] bad_fifo;                  //    a FIFO's capacity or number
  logic [2:0] bad_role;                  // 2
  logic       same_color;                // 3
  logic [2:0] bad_type;                  // 4
  logic [2:0] bad_color;                 // 5
  logic [2:0] misaligned;                // 6
  always_comb begin
    logic [2:0] kind, elem;
    logic [4:0] col;
    logic [1:0] base;  // of Base, the bits alignment needs
    logic       mem;   // mem1d, mem4d or FIFO: in SRAM
    kind       = '0;
    elem       = '0;
    col        = '0;
    base       = '0;
    mem        = 1'b0;
    bad_kind   = '0;
    bad_elem   = '0;
    rsvd       = '0;
    odd4       = '0;
    bad_fifo   = '0;
    bad_role   = '0;
    bad_type   = '0;
    bad_color  = '0;
    misaligned = '0;
    same_color = 1'b0;
    if (active_i) begin
      for (int r = 0; r < 3; r++) begin
        kind = raw[r][DsdKindLsb +: 3];
        elem = raw[r][DsdElemLsb +: 3];
        col  = raw[r][DsdColorLsb +: 5];
        base = raw[r][DsdBaseLsb +: 2];
        mem  = kind == 3'(DsdKindMem1d) || kind == 3'(DsdKindMem4d) || fifo[r];
        bad_kind[r]   = has[r] && (kind == 3'(DsdKindNone) ||
                                   (kind > 3'(DsdKindMem4d) && kind != 3'(DsdKindFifo)));
        bad_elem[r]   = has[r] && elem > 3'(ElemTypeU16);
        rsvd[r]       = has[r] && (raw[r][31] || raw[r][63:61] != 3'b000);
        odd4[r]       = has[r] && kind == 3'(DsdKindMem4d) && dsr[r][0];
        bad_fifo[r]   = fifo[r] && (raw[r][DsdLengthLsb +: 15] == '0 ||
                                    raw[r][DsdLengthLsb +: 15] == 15'(UnboundedLength) ||
                                    32'(col) >= NumFifos);
        bad_role[r]   = has[r] && !mem && kind != (r == 0 ? 3'(DsdKindFabOut) : 3'(DsdKindFabIn));
        bad_type[r]   = has[r] && !type_fits(cls[r], elem);
        bad_color[r]  = has[r] && !mem &&
                        (32'(col) >= NumColors ||
                         !(kind == 3'(DsdKindFabOut) ? can_send_i[col] : can_recv_i[col]));
        misaligned[r] = has[r] && mem &&
                        (elem[0] ? base[0] : base[1:0] != 2'b00);  // ElemType: odd = 16-bit
      end
      same_color = has[1] && has[2] &&
                   ((raw[1][DsdKindLsb +: 3] == 3'(DsdKindFabIn) &&
                     raw[2][DsdKindLsb +: 3] == 3'(DsdKindFabIn)) || (fifo[1] && fifo[2])) &&
                   raw[1][DsdColorLsb +: 5] == raw[2][DsdColorLsb +: 5];
    end
  end

  // The first failing check, on its first failing operand.
  logic [2:0] invalid;
  logic [1:0] r;
  always_comb begin
    dsd_why_e why;
    invalid     = bad_kind | bad_elem | rsvd | odd4 | bad_fifo;
    invalid[lead] = invalid[lead] | too_many;
    fault_o     = 1'b1;
    fault_rec_o = '0;
    fault_rec_o.pc = pc_i;
    r = '0;
    why = DsdWhyKind;
    if (!active_i) begin
      fault_o = 1'b0;
    end else if (invalid != '0) begin
      r = first_role(invalid[1:0]);
      why = bad_kind[r] ? DsdWhyKind : bad_elem[r] ? DsdWhyType : rsvd[r] ? DsdWhyReserved :
            odd4[r] ? DsdWhyPair : bad_fifo[r] ? DsdWhyFifo : DsdWhyShape;
      fault_rec_o.cause = CeFaultDsdInvalid;
      fault_rec_o.addr  = why == DsdWhyShape ? (count[35:32] != '0 ? '1 : count[31:0]) :
                                               raw[r][63:32];
      fault_rec_o.info  = info(r, dsr[r], 15'(why));
    end else if (bad_role != '0) begin
      r = first_role(bad_role[1:0]);
      fault_rec_o.cause = CeFaultDsdInvalid;
      fault_rec_o.addr  = raw[r][63:32];
      fault_rec_o.info  = info(r, dsr[r], 15'(DsdWhyRole));
    end else if (same_color) begin
      r = 2'd2;
      fault_rec_o.cause = CeFaultDsdInvalid;
      fault_rec_o.addr  = raw[2][63:32];
      fault_rec_o.info  = info(r, dsr[r], 15'(DsdWhySameColor));
    end else if (bad_type != '0) begin
      r = first_role(bad_type[1:0]);
      fault_rec_o.cause = CeFaultDsdType;
      fault_rec_o.addr  = raw[r][63:32];
      fault_rec_o.info  = info(r, dsr[r], 15'd0);
    end else if (bad_color != '0) begin
      r = first_role(bad_color[1:0]);
      fault_rec_o.cause = CeFaultBadColor;
      fault_rec_o.addr  = 32'(raw[r][DsdColorLsb +: 5]);
      fault_rec_o.info  = info(r, dsr[r], 15'd0);
    end else if (misaligned != '0) begin
      r = first_role(misaligned[1:0]);
      fault_rec_o.cause = CeFaultDsdMisaligned;
      fault_rec_o.addr  = 32'(raw[r][DsdBaseLsb +: 16]);
      fault_rec_o.info  = info(r, dsr[r], 15'd0);
    end else begin
      fault_o = 1'b0;
    end
  end

  // The decoder's other fields are not the checks'; the opcode and completion fields neither.
  logic unused;
  assign unused = ^{dec_i, d.ut, d.tid, d.s, d.u, d.op};
endmodule
