// Which task runs next (docs/isa.md 5, 6.8 items 5 and 6), combinational:
//   the control dispatcher  takes the first control wavelet at a CE queue head (lowest color) that
//                           no microthread reads and whose task is not already active: it sets
//                           that task active with the wavelet's argument (none for NoTask), or
//                           faults TaskKind if the task is not a control task;
//   the picker              while no task runs, starts the lowest runnable task: a data task whose
//                           color heads a data wavelet no microthread reads, or an active local or
//                           control task, none blocked; a misaligned or out-of-range entry faults
//                           TaskEntry.
// Each may act only if nothing before it in the cycle faulted (tessera_ce_fault: disp_i,
// pick_i); then they pop their wavelets. The functional model's twin: Ce::Dispatcher, Ce::Picker.
module tessera_ce_tasks (
  input  logic                                  clk_i,         // for the assertions
  input  logic                                  rst_ni,
  input  logic [15:0]                           pc_i,          // FaultPc of their faults
  input  logic                                  running_i,
  input  logic                                  faulted_i,
  input  logic [tessera_pkg::NumColors-1:0]     in_valid_i,    // CE queue heads
  input  logic [tessera_pkg::NumColors-1:0]     in_ctrl_i,
  input  logic [tessera_pkg::NumColors*32-1:0]  in_data_i,
  input  logic [tessera_pkg::NumColors-1:0]     ut_reads_i,    // colors microthreads read
  input  logic [tessera_pkg::NumTasks*2-1:0]    tkind_i,
  input  logic [tessera_pkg::NumTasks*16-1:0]   tentry_i,
  input  logic [31:0]                           active_i,
  input  logic [31:0]                           blocked_i,
  // the control dispatcher
  output logic                                  disp_o,        // takes a control wavelet ...
  output logic                                  disp_set_o,    // ... and sets this task active
  output logic [4:0]                            disp_task_o,
  output logic [15:0]                           disp_arg_o,
  output logic                                  disp_fault_o,
  output tessera_pkg::ce_fault_t             disp_fault_rec_o,
  // the picker
  output logic [31:0]                           runnable_o,
  output logic                                  pick_o,        // starts a task ...
  output logic [4:0]                            pick_task_o,
  output logic [15:0]                           pick_entry_o,
  output logic [31:0]                           pick_data_o,   // ... r0 of a data task
  output logic                                  pick_fault_o,
  output tessera_pkg::ce_fault_t             pick_fault_rec_o,
  // what they take, when they may act
  input  logic                                  disp_i,
  input  logic                                  pick_i,
  output logic [tessera_pkg::NumColors-1:0]     pop_o
);
  `include "tessera_pkg_use.svh"

  // (The packed inputs are read where needed: unpacking every color's head and every task's
  // kind and entry into arrays would cost a simulator that much each cycle.)
  function automatic logic [1:0] kind_of(input logic [4:0] t);
    kind_of = tkind_i[2*t +: 2];
  endfunction

  function automatic logic [31:0] fault_info(input logic write, input logic [14:0] index);
    logic [31:0] v;
    v = '0;
    v[FaultInfoWriteLsb]       = write;  // Write marks the dispatcher's fault
    v[FaultInfoUtLsb +: 4]     = 4'hF;
    v[FaultInfoIndexLsb +: 15] = index;
    fault_info = v;
  endfunction

  // The control dispatcher (item 5); its search only where a control wavelet heads a queue
  // that no microthread reads.
  logic [4:0] disp_color;
  always_comb begin
    logic [4:0]           t;
    logic [NumColors-1:0] heads;
    disp_o      = 1'b0;
    disp_color  = '0;
    disp_task_o = '0;
    t           = '0;
    heads       = in_valid_i & in_ctrl_i & ~ut_reads_i;
    if (heads != '0) begin
      for (int c = NumColors - 1; c >= 0; c--) begin
        t = in_data_i[32*c + CtrlTaskLsb +: 5];
        if (heads[c] && (t == 5'(NoTask) || !active_i[t])) begin
          disp_o      = 1'b1;
          disp_color  = 5'(c);
          disp_task_o = t;
        end
      end
    end
    disp_arg_o       = '0;
    disp_set_o       = 1'b0;
    disp_fault_o     = 1'b0;
    disp_fault_rec_o = '0;
    if (disp_o) begin
      disp_arg_o   = in_data_i[32*disp_color +: 16];
      disp_set_o   = disp_task_o != 5'(NoTask) && kind_of(disp_task_o) == TaskKindControl;
      disp_fault_o = disp_task_o != 5'(NoTask) && kind_of(disp_task_o) != TaskKindControl;
      disp_fault_rec_o.cause = CeFaultTaskKind;
      disp_fault_rec_o.pc    = pc_i;
      disp_fault_rec_o.addr  = 32'(disp_task_o);
      disp_fault_rec_o.info  = fault_info(1'b1, 15'(disp_color));
    end
  end

  // The picker (item 6): only while no task runs (runnable_o is then all zeros; the CE is not
  // quiet anyway while a task runs)
  always_comb begin
    logic [31:0] data_ready;  // bit t: data task t's color heads a data wavelet none reads
    data_ready  = '0;
    runnable_o  = '0;
    pick_o      = 1'b0;
    pick_task_o = '0;
    if (!running_i) begin
      data_ready[NumColors-1:0] = in_valid_i & ~in_ctrl_i & ~ut_reads_i;
      for (int t = 0; t < NumTasks; t++) begin
        if (!blocked_i[t]) begin
          if (kind_of(5'(t)) == TaskKindData)
            runnable_o[t] = data_ready[t];
          else if (kind_of(5'(t)) == TaskKindLocal || kind_of(5'(t)) == TaskKindControl)
            runnable_o[t] = active_i[t];
        end
      end
      runnable_o[NoTask] = 1'b0;
      for (int t = NumTasks - 1; t >= 0; t--) begin
        if (runnable_o[t]) begin
          pick_o      = 1'b1;
          pick_task_o = 5'(t);
        end
      end
    end
    if (faulted_i) pick_o = 1'b0;
    pick_entry_o     = '0;
    pick_data_o      = '0;
    pick_fault_o     = 1'b0;
    pick_fault_rec_o = '0;
    if (pick_o) begin
      pick_entry_o = tentry_i[16*pick_task_o +: 16];
      // a data task's wavelet heads the color of its id (tasks 0..23)
      if (32'(pick_task_o) < NumColors) pick_data_o = in_data_i[32*pick_task_o +: 32];
      pick_fault_o = pick_entry_o[1:0] != 2'b00 || pick_entry_o >= SramBytes[15:0];
      pick_fault_rec_o.cause = CeFaultTaskEntry;
      pick_fault_rec_o.pc    = pc_i;
      pick_fault_rec_o.addr  = 32'(pick_entry_o);
      pick_fault_rec_o.info  = fault_info(1'b0, 15'(pick_task_o));
    end
  end

  // What they pop when they act
  always_comb begin
    pop_o = '0;
    if (disp_i) pop_o[disp_color] = 1'b1;
    if (pick_i && kind_of(pick_task_o) == TaskKindData) pop_o[pick_task_o] = 1'b1;
  end

  `include "tessera_assert.svh"
  `ASSERT_IF(DispatcherTakesAControlHead, disp_o, in_valid_i[disp_color] && in_ctrl_i[disp_color])
  `ASSERT_IF(PickedTaskIsRunnable, pick_o, runnable_o[pick_task_o])
endmodule
