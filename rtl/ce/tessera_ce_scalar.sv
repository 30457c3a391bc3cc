// The scalar stage of the compute engine (docs/isa.md 4.5-4.10, 6.8 item 3): what the
// instruction at pc does in this cycle. Every reason it cannot issue is a named signal: the stall
// reasons (stall_*) and the fault causes (fault_*), each computed on its own, then combined once,
// in this priority:
//   1. the second word of an std waits for the write port       stall Port (nothing issues)
//   2. a synchronous DSD operation is still running              stall Sync
//   3. the fetch ran past the end of SRAM                        fault PcRange
//   4. an illegal encoding                                       fault Illegal
//   5. a DSD instruction whose microthread is busy               stall Ut
//   6. the instruction's fault (one class, one cause):           fault OutOfRange, Misaligned,
//      MmioAccess, ReadOnly, PcRange (target), Trap, TaskId, TaskKind, BadColor, DsdInvalid,
//      or those of the DSD checks (tessera_ce_dsd_check)
//   7. the resource it lacks (one class):                        stall Port, Fmac, Send, UtWait
//   8. else it issues.
// Faults come before resources (a faulting instruction never waits), except that a DSD
// instruction first waits for its microthread. The effects below are those of the instruction as
// if it issues; each output takes them only when it does. This module also holds what the stage
// keeps between instructions: the synchronous DSD operation it waits for, the second word of an
// std, and CeStatus.Stall/StallColor. The functional model's twin is model/ce/exec_scalar.cpp.
module tessera_ce_scalar (
  input  logic                                        clk_i,
  input  logic                                        rst_ni,
  input  logic                                        live_i,      // enabled, no fault recorded
  // the instruction at pc, and its operands (R[B] as read: the Z bit is applied here)
  input  logic                                        running_i,
  input  logic [15:0]                                 pc_i,
  input  logic [31:0]                                 ir_i,
  input  logic                                        ir_valid_i,
  input  logic                                        ir_past_i,   // fetched past SRAM's end
  input  tessera_pkg::isa_dec_t                       dec_i,
  input  logic [31:0]                                 ra_i,
  input  logic [31:0]                                 rb_i,
  input  logic [31:0]                                 rc_i,
  input  logic [31:0]                                 rd_i,
  input  logic [63:0]                                 da_i,        // D[A]
  input  logic [63:0]                                 db_i,        // D[B]
  output logic [31:0]                                 ea_o,        // effective address
  output logic [5:0]                                  mm_reg_o,    // the register at ea_o ...
  output logic [4:0]                                  mm_idx_o,
  output logic                                        mm_router_o, // ... is the router's
  input  logic [31:0]                                 mm_rdata_i,  // ... its value
  // state the instruction reads
  input  logic                                        fp_pend_i,   // a scalar FP result in flight
  input  logic [tessera_pkg::NumMicrothreads-1:0]     ut_busy_i,
  input  logic [tessera_pkg::NumTasks*2-1:0]          tkind_i,
  input  logic [tessera_pkg::NumColors-1:0]           cred_i,      // an output credit per color
  input  logic [tessera_pkg::NumColors-1:0]           can_send_i,
  // what the DSD engine holds in this cycle (6.8 item 1), and its checks of a DSD instruction
  input  logic                                        eng_write_i, // a result due: the write port
  input  logic                                        eng_send_i,  // ... the ramp
  input  logic                                        eng_split_i, // read ports, next FMAC slot
  input  logic                                        iss_busy_i,
  input  logic                                        iss_fault_i,
  input  tessera_pkg::ce_fault_t                   iss_fault_rec_i,
  input  logic                                        pick_i,      // the picker starts a task
  input  tessera_pkg::sram_rsp_t                   sram_i,      // load data
  // the outcome
  output logic                                        issue_o,
  output logic                                        fault_o,
  output tessera_pkg::ce_fault_t                   fault_rec_o,
  output tessera_pkg::ce_stall_e                      stall_o,     // CeStatus.Stall
  output logic                                        stall_now_o, // stalls in this cycle ...
  output tessera_pkg::ce_stall_e                      stall_why_o, // ... for this reason
  output logic [4:0]                                  stall_color_o,
  // what the issuing instruction takes, for the engine
  output logic [1:0]                                  ports_o,     // read ports
  output logic [7:0]                                  banks_o,
  output logic [11:0]                                 row_o,
  output logic                                        fmac_o,      // the next FMAC slot
  // what it does
  output tessera_pkg::gpr_wr_t                     gpr_o,
  output tessera_pkg::dsr_wr_t                     dsr_o,
  output tessera_pkg::sram_wr_t                    wr_o,        // a store, an std's 2nd word
  output tessera_pkg::reg_wr_t                     reg_o,       // a store to a register
  output logic                                        dbg_o,       // ... to a DebugPort register
  output logic                                        cyc_latch_o, // a load of CycleLo
  output tessera_pkg::link_t                          send_o,
  output tessera_pkg::task_fx_t                    task_o,
  output tessera_pkg::flow_t                       flow_o,
  output tessera_pkg::fp_issue_t                   fp_o,
  output logic                                        dsd_o        // a DSD instruction issues
);
  `include "tessera_pkg_use.svh"

  function automatic logic [31:0] fault_info(input logic [1:0] size, input logic write);
    logic [31:0] v;
    v = '0;
    v[FaultInfoSizeLsb +: 2] = size;   // AccSize
    v[FaultInfoWriteLsb]     = write;
    v[FaultInfoUtLsb +: 4]   = 4'hF;   // no microthread
    fault_info = v;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Fields, operands, effective address
  tessera_pkg::insn_r_t ir_r;  // the instruction in the views of its formats (isa.def)
  tessera_pkg::insn_i_t ir_f;
  tessera_pkg::insn_d_t ir_d;
  // The decoded fields as plain signals (Yosys 0.23 cannot size a struct member in a case).
  insn_class_e cls;
  alu_op_e     alu_op;
  br_op_e      br_op;
  jump_op_e    jump_op;
  sys_op_e     sys_op;
  task_op_e    task_op;
  mem_op_e     mem_op;
  dsr_op_e     dsr_op;
  fp_op_e      fp_op;
  fp_fmt_e     fp_fmt;
  logic [3:0]  fa;
  logic        fz;
  logic [15:0] imm;
  logic [31:0] rb, imm32, ea;
  always_comb begin
    ir_r    = ir_i;
    ir_f    = ir_i;
    ir_d    = ir_i;
    cls     = dec_i.cls;
    alu_op  = dec_i.alu_op;
    br_op   = dec_i.br_op;
    jump_op = dec_i.jump_op;
    sys_op  = dec_i.sys_op;
    task_op = dec_i.task_op;
    mem_op  = dec_i.mem_op;
    dsr_op  = dec_i.dsr_op;
    fp_op   = dec_i.fp_op;
    fp_fmt  = dec_i.fp_fmt;
    fa      = ir_r.a;
    fz      = ir_r.z;
    imm     = ir_f.imm;
    rb      = fz ? 32'h0 : rb_i;
    imm32   = dec_i.imm_sx ? {{16{imm[15]}}, imm} : {16'h0, imm};
    // mem and tgt operands: Z ? zx(imm) : R[B] + sx(imm); also `Bv + sx(imm)` of bval
    ea      = (dec_i.z_abs && fz) ? {16'h0, imm} : rb + imm32;
  end
  assign ea_o = ea;

  logic       mm_valid, mm_ro, mm_host, mm_router;
  mmio_reg_e  mm_reg;
  tessera_ce_mmio u_mmio (
    .addr_i(ea[15:0]), .valid_o(mm_valid), .reg_o(mm_reg), .index_o(mm_idx_o), .ro_o(mm_ro),
    .host_only_o(mm_host), .router_o(mm_router)
  );
  assign mm_reg_o    = mm_reg;
  assign mm_router_o = mm_router;


  // The instruction's class and the accesses it makes.
  logic        is_fp, is_load, is_store, is_mem, is_ldd, is_std, is_dsr_mem, is_setbase, is_setlen;
  logic        is_trap, is_utwait, is_task, is_send, is_dsd, is_br, is_jump;
  logic [2:0]  mem_bytes;   // a load or store: 1, 2 or 4
  logic [1:0]  acc_size;    // AccSize of the access: Byte, Half, Word, Dsd
  logic        in_mmio;     // the access is to a register
  logic [31:0] task_id;     // a task instruction's task, a send's color
  logic [31:0] br_target, jump_target;
  logic        activates;
  always_comb begin
    is_fp      = cls == InsnClassFp;
    is_load    = cls == InsnClassLoad;
    is_store   = cls == InsnClassStore;
    is_mem     = is_load || is_store;
    is_ldd     = cls == InsnClassDsr && dsr_op == DsrOpLdd;
    is_std     = cls == InsnClassDsr && dsr_op == DsrOpStd;
    is_dsr_mem = is_ldd || is_std;
    is_setbase = cls == InsnClassDsr && dsr_op == DsrOpSetBase;
    is_setlen  = cls == InsnClassDsr && dsr_op == DsrOpSetLen;
    is_br      = cls == InsnClassBr;
    is_jump    = cls == InsnClassJump;
    is_trap    = cls == InsnClassSys && sys_op == SysOpTrap;
    is_utwait  = cls == InsnClassSys && sys_op == SysOpUtWait;
    is_task    = cls == InsnClassTask;
    is_send    = cls == InsnClassSend;
    is_dsd     = cls == InsnClassDsd;
    unique case (mem_op)
      MemOpB, MemOpBu: mem_bytes = 3'd1;
      MemOpH, MemOpHu: mem_bytes = 3'd2;
      default:         mem_bytes = 3'd4;
    endcase
    acc_size    = is_dsr_mem || is_setbase ? 2'd3 : mem_bytes == 3'd1 ? 2'd0 : mem_bytes == 3'd2 ? 2'd1 : 2'd2;
    in_mmio     = ea[15:0] >= MmioBase[15:0];
    task_id     = fz ? {16'h0, imm} : rb_i;
    br_target   = {16'h0, pc_i} + {{14{imm[15]}}, imm, 2'b00};
    jump_target = (jump_op == JumpOpJ || jump_op == JumpOpJal) ? br_target : ea;
    activates   = task_op == TaskOpActivate || task_op == TaskOpActivateArg;
  end

  logic br_take;
  always_comb begin
    unique case (br_op)
      BrOpEq:  br_take = ra_i == rb;
      BrOpNe:  br_take = ra_i != rb;
      BrOpLt:  br_take = $signed(ra_i) < $signed(rb);
      BrOpGe:  br_take = $signed(ra_i) >= $signed(rb);
      BrOpLtu: br_take = ra_i < rb;
      BrOpGeu: br_take = ra_i >= rb;
      default: br_take = 1'b0;
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // The stage's state between instructions
  logic        sync_q, sync_d;          // a synchronous DSD operation the CE waits for (4.11)
  logic [2:0]  sync_ut_q, sync_ut_d;
  logic        std_pend_q, std_pend_d;  // the second word of an std
  logic [13:0] std_addr_q, std_addr_d;
  logic [31:0] std_data_q, std_data_d;
  ce_stall_e   stall_q, stall_d;        // CeStatus.Stall and StallColor
  logic [4:0]  stall_col_q, stall_col_d;

  // ---------------------------------------------------------------------------------------------
  // Stall reasons and fault causes, each on its own
  logic stall_std, stall_sync, stall_ut, stall_port, stall_fmac, stall_send, stall_utwait;
  logic fault_fetch, fault_illegal, fault_range, fault_misaligned, fault_mmio, fault_readonly;
  logic fault_target, fault_trap, fault_task_id, fault_task_kind, fault_color, fault_length;
  logic fault_dsd;
  always_comb begin
    stall_std    = eng_write_i;  // (with an std pending)
    stall_sync   = sync_q && ut_busy_i[sync_ut_q];
    stall_ut     = is_dsd && iss_busy_i;
    stall_port   = ((is_load && !in_mmio) || is_ldd) && eng_split_i ||
                   ((is_store && !in_mmio) || is_std) && eng_write_i;
    stall_fmac   = is_fp && eng_split_i;
    stall_send   = is_send && (32'(task_id[4:0]) >= NumColors || !cred_i[task_id[4:0]] ||
                                eng_send_i);
    stall_utwait = is_utwait && (8'(ut_busy_i) & imm[7:0]) != 8'h0;

    fault_fetch      = ir_past_i;
    fault_illegal    = !dec_i.legal;
    fault_range      = (is_mem || is_dsr_mem || is_setbase) && ea[31:16] != 16'h0;
    fault_misaligned = is_mem && ((mem_bytes == 3'd2 && ea[0]) ||
                                  (mem_bytes == 3'd4 && ea[1:0] != 2'b00)) ||
                       is_dsr_mem && ea[2:0] != 3'b000;
    fault_mmio       = is_mem && in_mmio && (mem_bytes != 3'd4 || !mm_valid || mm_host) ||
                       is_dsr_mem && in_mmio;
    fault_readonly   = is_store && in_mmio && mm_ro;
    fault_target     = is_br && br_take && br_target >= {16'h0, SramBytes[15:0]} ||
                       is_jump && (jump_target >= {16'h0, SramBytes[15:0]} ||
                                   jump_target[1:0] != 2'b00);
    fault_trap       = is_trap;
    fault_task_id    = is_task && task_id > 32'(NoTask);
    fault_task_kind  = is_task && task_id < 32'(NoTask) && activates &&
                       tkind_i[2*task_id[4:0] +: 2] != 2'(TaskKindLocal) &&
                       tkind_i[2*task_id[4:0] +: 2] != 2'(TaskKindControl);
    fault_color      = is_send && (task_id >= 32'(NumColors) || !can_send_i[task_id[4:0]]);
    fault_length     = is_setlen && ea > 32'(UnboundedLength);
    fault_dsd        = is_dsd && iss_fault_i;
  end

  // ---------------------------------------------------------------------------------------------
  // The outcome: one priority mux (see the header)
  logic       try_issue;  // an instruction is there to issue
  logic       std_done;   // the std's second word takes the write port
  logic       stall;
  ce_stall_e  stall_why;
  logic [31:0] plain_info;
  always_comb begin
    try_issue   = live_i && running_i && ir_valid_i && !fp_pend_i && !std_pend_q;
    std_done    = std_pend_q && live_i && !stall_std;
    plain_info  = fault_info(2'd0, 1'b0);
    issue_o     = 1'b0;
    stall       = 1'b0;
    stall_why   = CeStallNone;
    fault_o     = 1'b0;
    fault_rec_o = '0;
    fault_rec_o.pc   = pc_i;
    fault_rec_o.info = plain_info;
    if (std_pend_q && live_i) begin
      stall     = stall_std;
      stall_why = CeStallPort;
    end else if (try_issue) begin
      fault_o = 1'b1;
      if (stall_sync) begin
        fault_o   = 1'b0;
        stall     = 1'b1;
        stall_why = CeStallSync;
      end else if (fault_fetch) begin
        fault_rec_o.cause = CeFaultPcRange;
        fault_rec_o.addr  = {16'h0, pc_i};
      end else if (fault_illegal) begin
        fault_rec_o.cause = CeFaultIllegal;
        fault_rec_o.addr  = ir_i;
      end else if (stall_ut) begin
        fault_o   = 1'b0;
        stall     = 1'b1;
        stall_why = CeStallUt;
      end else if (fault_range || fault_misaligned || fault_mmio || fault_readonly) begin
        fault_rec_o.cause = fault_range      ? CeFaultOutOfRange :
                            fault_misaligned ? CeFaultMisaligned :
                            fault_mmio       ? CeFaultMmioAccess : CeFaultReadOnly;
        fault_rec_o.addr  = ea;
        // FaultInfo of an access: its size and direction (setbase: size Dsd, a read)
        fault_rec_o.info  = fault_info(acc_size, is_store || is_std);
      end else if (fault_target) begin
        fault_rec_o.cause = CeFaultPcRange;
        fault_rec_o.addr  = is_br ? br_target : jump_target;
      end else if (fault_trap) begin
        fault_rec_o.cause = CeFaultTrap;
        fault_rec_o.addr  = {16'h0, imm};
      end else if (fault_task_id || fault_task_kind) begin
        fault_rec_o.cause = fault_task_id ? CeFaultTaskId : CeFaultTaskKind;
        fault_rec_o.addr  = task_id;
      end else if (fault_color) begin
        fault_rec_o.cause = CeFaultBadColor;
        fault_rec_o.addr  = task_id;
      end else if (fault_length) begin
        fault_rec_o.cause = CeFaultDsdInvalid;
        fault_rec_o.addr  = ea;
      end else if (fault_dsd) begin
        fault_rec_o = iss_fault_rec_i;
      end else begin
        fault_o = 1'b0;
        stall   = 1'b1;
        if (stall_port) begin
          stall_why = CeStallPort;
        end else if (stall_fmac) begin
          stall_why = CeStallFmac;
        end else if (stall_send) begin
          stall_why = CeStallSend;
        end else if (stall_utwait) begin
          stall_why = CeStallUtWait;
        end else begin
          stall   = 1'b0;
          issue_o = 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Effects, as if the instruction issues. No SRAM data here: the engine's read addresses depend
  // on this stage's decision, and the SRAM's read ports are combinational.
  logic        gpr_we, dsr_we, ld_sram, mem_we, reg_we;
  logic [31:0] gpr_data;
  logic [63:0] dsr_data;
  logic [3:0]  mem_be;
  logic [31:0] mem_data;
  logic [1:0]  ports;
  logic [7:0]  banks;
  always_comb begin
    logic [31:0] y;
    logic [15:0] scale;
    logic [2:0]  el;
    gpr_we   = 1'b0;
    gpr_data = '0;
    dsr_we   = 1'b0;
    dsr_data = da_i;
    ld_sram  = 1'b0;
    mem_we   = 1'b0;
    mem_be   = '0;
    mem_data = '0;
    reg_we   = 1'b0;
    ports    = 2'd0;
    banks    = '0;
    y        = dec_i.rd_c ? rc_i : imm32;
    el       = da_i[DsdElemLsb +: 3];
    scale    = ea[15:0];
    unique case (cls)
      InsnClassAlu: begin
        gpr_we = 1'b1;
        unique case (alu_op)
          AluOpAdd:  gpr_data = rb + y;
          AluOpSub:  gpr_data = rb - y;
          AluOpAnd:  gpr_data = rb & y;
          AluOpOr:   gpr_data = rb | y;
          AluOpXor:  gpr_data = rb ^ y;
          AluOpShl:  gpr_data = rb << y[4:0];
          AluOpShr:  gpr_data = rb >> y[4:0];
          AluOpSra:  gpr_data = $signed(rb) >>> y[4:0];
          AluOpSlt:  gpr_data = {31'h0, $signed(rb) < $signed(y)};
          AluOpSltu: gpr_data = {31'h0, rb < y};
          AluOpMul:  gpr_data = $signed({{16{rb[15]}}, rb[15:0]}) * $signed({{16{y[15]}}, y[15:0]});
          AluOpMulu: gpr_data = {16'h0, rb[15:0]} * {16'h0, y[15:0]};
          AluOpLui:  gpr_data = {imm, 16'h0};
          default:   gpr_data = '0;
        endcase
      end
      InsnClassLoad: begin
        gpr_we = 1'b1;
        if (in_mmio) begin
          gpr_data = mm_rdata_i;
        end else begin
          ld_sram = 1'b1;  // the value comes from read port 0
          ports   = 2'd1;
          banks   = mem_bytes == 3'd4 ? 8'(2'b11) << ea[3:1] : 8'(1) << ea[3:1];
        end
      end
      InsnClassStore: begin
        if (in_mmio) begin
          reg_we = 1'b1;
        end else begin
          mem_we = 1'b1;
          unique case (mem_bytes)
            3'd1: begin
              mem_be   = 4'b0001 << ea[1:0];
              mem_data = {4{ra_i[7:0]}};
            end
            3'd2: begin
              mem_be   = ea[1] ? 4'b1100 : 4'b0011;
              mem_data = {2{ra_i[15:0]}};
            end
            default: begin
              mem_be   = 4'b1111;
              mem_data = ra_i;
            end
          endcase
        end
      end
      InsnClassJump: begin
        gpr_we   = jump_op == JumpOpJal || jump_op == JumpOpJalr;
        gpr_data = {16'h0, pc_i + 16'd4};
      end
      InsnClassDsr: begin
        unique case (dsr_op)
          DsrOpLdd: begin
            dsr_we  = 1'b1;
            ld_sram = 1'b1;  // the value comes from read ports 0 and 1
            ports   = 2'd2;
            banks   = 8'(4'b1111) << ea[3:1];
          end
          DsrOpStd: begin
            mem_we   = 1'b1;  // the first word; the second follows (std_pend)
            mem_be   = 4'b1111;
            mem_data = da_i[31:0];
          end
          DsrOpDmov: begin
            dsr_we   = 1'b1;
            dsr_data = db_i;
          end
          DsrOpDrd: begin
            gpr_we   = 1'b1;
            gpr_data = imm[0] ? db_i[63:32] : db_i[31:0];
          end
          DsrOpDwr: begin
            dsr_we = 1'b1;
            if (imm[0]) dsr_data[63:32] = rb;
            else        dsr_data[31:0]  = rb;
          end
          DsrOpSetBase: begin
            dsr_we = 1'b1;
            dsr_data[DsdBaseLsb +: 16] = ea[15:0];
          end
          DsrOpIncBase: begin
            // bval = Bv + sx(imm); mem1d: Base moves by whole elements (reserved types: bytes)
            if ((da_i[DsdKindLsb +: 3] == 3'(DsdKindMem1d) || da_i[DsdKindLsb +: 3] == 3'(DsdKindMem4d)) &&
                el <= 3'(ElemTypeU16))
              scale = el[0] ? {ea[14:0], 1'b0} : {ea[13:0], 2'b00};
            dsr_we = 1'b1;
            dsr_data[DsdBaseLsb +: 16] = da_i[DsdBaseLsb +: 16] + scale;
          end
          DsrOpSetLen: begin
            dsr_we = 1'b1;
            dsr_data[DsdLengthLsb +: 15] = ea[14:0];
          end
          default: ;
        endcase
      end
      default: ;
    endcase
  end

  // Register writes with the load data (a separate block: see above)
  always_comb begin
    logic [31:0] w;
    w           = sram_i.rd0_data;
    gpr_o       = '0;
    gpr_o.we    = issue_o && gpr_we;
    gpr_o.addr  = fa;
    gpr_o.data  = gpr_data;
    dsr_o       = '0;
    dsr_o.we    = issue_o && dsr_we;
    dsr_o.addr  = fa;
    dsr_o.data  = dsr_data;
    if (ld_sram) begin
      dsr_o.data = {sram_i.rd1_data, w};
      unique case (mem_op)
        MemOpB:  gpr_o.data = {{24{w[8*ea[1:0] + 7]}}, w[8*ea[1:0] +: 8]};
        MemOpBu: gpr_o.data = {24'h0, w[8*ea[1:0] +: 8]};
        MemOpH:  gpr_o.data = {{16{w[16*ea[1] + 15]}}, w[16*ea[1] +: 16]};
        MemOpHu: gpr_o.data = {16'h0, w[16*ea[1] +: 16]};
        default: gpr_o.data = w;
      endcase
    end
  end

  // The other effects
  always_comb begin
    ports_o        = issue_o ? ports : 2'd0;
    banks_o        = issue_o ? banks : 8'h0;
    row_o          = ea[15:4];
    fmac_o         = issue_o && is_fp;
    dsd_o          = issue_o && is_dsd;
    // SRAM write: the second word of an std, or a store
    wr_o           = '0;
    wr_o.we        = issue_o && mem_we;
    wr_o.addr      = ea[15:2];
    wr_o.be        = mem_be;
    wr_o.data      = mem_data;
    if (std_done) begin
      wr_o.we   = 1'b1;
      wr_o.addr = std_addr_q;
      wr_o.be   = 4'b1111;
      wr_o.data = std_data_q;
    end
    // a store to a register (the register write port)
    reg_o          = '0;
    reg_o.we       = issue_o && reg_we;
    reg_o.id       = mm_reg;
    reg_o.idx      = mm_idx_o;
    reg_o.router   = mm_router;
    reg_o.data     = ra_i;
    dbg_o          = issue_o && reg_we && mm_reg == MmioDebugPort;
    cyc_latch_o    = issue_o && is_load && in_mmio && mm_reg == MmioCycleLo;
    // send
    send_o         = '0;
    send_o.valid   = issue_o && is_send;
    send_o.ctrl    = dec_i.send_op == SendOpCtrl;
    send_o.color   = task_id[4:0];
    send_o.data    = ra_i;
    // task instructions (task NoTask: nothing)
    task_o          = '0;
    task_o.arg_task = task_id[4:0];
    task_o.arg      = ra_i[15:0];
    if (issue_o && is_task && task_id != 32'(NoTask)) begin
      unique case (task_op)
        TaskOpActivate:    task_o.activate[task_id[4:0]] = 1'b1;
        TaskOpActivateArg: begin
          task_o.activate[task_id[4:0]] = 1'b1;
          task_o.arg_we = 1'b1;
        end
        TaskOpBlock:       task_o.block[task_id[4:0]] = 1'b1;
        default:           task_o.unblock[task_id[4:0]] = 1'b1;
      endcase
    end
    // where the stage goes
    flow_o         = '0;
    flow_o.tend    = issue_o && cls == InsnClassSys && sys_op == SysOpTend;
    flow_o.taken   = issue_o && (is_br && br_take || is_jump);
    flow_o.target  = is_br ? br_target[15:0] : jump_target[15:0];
    // FP: the FMAC slot of the next cycle. Sub is the FMAC's own operation; a and b as written,
    // c for fma.
    fp_o           = '0;
    fp_o.valid     = issue_o && is_fp;
    fp_o.op        = fp_op;
    fp_o.fmt       = fp_fmt;
    fp_o.rd        = fa;
    fp_o.half      = fp_fmt == FpFmtF16 && FpOpIsTwoLaneF16[fp_op];
    fp_o.a         = rb;
    fp_o.b         = rc_i;
    fp_o.c         = rd_i;
  end

  // ---------------------------------------------------------------------------------------------
  // Next state: the synchronous operation waited for, the std's second word, CeStatus.Stall
  always_comb begin
    sync_d      = sync_q;
    sync_ut_d   = sync_ut_q;
    if (issue_o) begin
      sync_d    = is_dsd && ir_d.u && ir_d.tid == 5'(NoTask);
      sync_ut_d = ir_d.ut;
    end
    std_pend_d = std_pend_q && !std_done;
    std_addr_d = std_addr_q;
    std_data_d = std_data_q;
    if (issue_o && is_std) begin
      std_pend_d = 1'b1;
      std_addr_d = ea[15:2] | 14'd1;
      std_data_d = da_i[63:32];
    end
    stall_d     = stall_q;
    stall_col_d = stall_col_q;
    if (issue_o) begin
      stall_d     = CeStallNone;
      stall_col_d = '0;
    end
    if (stall) begin
      stall_d = stall_why;
      if (stall_why == CeStallSend) stall_col_d = task_id[4:0];
    end
    if (std_done) stall_d = CeStallNone;
    if (pick_i) begin
      stall_d     = CeStallNone;
      stall_col_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q      <= 1'b0;
      sync_ut_q   <= '0;
      std_pend_q  <= 1'b0;
      std_addr_q  <= '0;
      std_data_q  <= '0;
      stall_q     <= CeStallNone;
      stall_col_q <= '0;
    end else begin
      sync_q      <= sync_d;
      sync_ut_q   <= sync_ut_d;
      std_pend_q  <= std_pend_d;
      std_addr_q  <= std_addr_d;
      std_data_q  <= std_data_d;
      stall_q     <= stall_d;
      stall_col_q <= stall_col_d;
    end
  end
  assign stall_o       = stall_q;
  assign stall_now_o   = stall;
  assign stall_why_o   = stall_why;
  assign stall_color_o = stall_col_q;

  // ---------------------------------------------------------------------------------------------
  `include "tessera_assert.svh"
  `ASSERT(OneOutcome, $onehot0({issue_o, stall, fault_o}))
  `ASSERT_IF(StallHasReason, stall, stall_why != CeStallNone)
  `ASSERT_IF(IssueOnlyWhenReady, issue_o, try_issue)
  `ASSERT_IF(NoIssueWithStdPending, std_pend_q, !issue_o)
  `ASSERT(LoadOrStoreNotBoth, !(ld_sram && mem_we))

  logic unused;
  assign unused = ^{ir_r, ir_f, ir_d.op, ir_d.dst, ir_d.src0, ir_d.src1, ir_d.s, dec_i,
                    sram_i.fetch_data};
endmodule
