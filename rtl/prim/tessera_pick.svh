// Pickers over a request mask of PickWidth bits, as functions so that an allocator can chain them
// inside one always_comb: the router over its NumColors colors, the DSD engine over its
// NumMicrothreads microthreads. Include inside a module body after tessera_pkg_use.svh, with
// `localparam int unsigned PickWidth` declared before it (one width per module). No run-time
// per-bit loop: the lowest set bit is isolated with x & -x and encoded with constant masks.
//
// Results are {valid, index}: PickBits + 1 bits, valid in the top bit.
localparam int unsigned PickBits = (PickWidth > 1) ? $clog2(PickWidth) : 1;

// Masks of the positions whose index has bit b set, bit b's mask at [b*PickWidth +: PickWidth].
function automatic logic [PickBits*PickWidth-1:0] pick_index_masks();
  for (int b = 0; b < PickBits; b++) begin
    for (int i = 0; i < PickWidth; i++) pick_index_masks[b*PickWidth + i] = ((i >> b) & 1) == 1;
  end
endfunction
localparam logic [PickBits*PickWidth-1:0] PickIndexMasks = pick_index_masks();

// Fixed priority: {valid, index of the lowest set bit}.
function automatic logic [PickBits:0] pick_lowest(input logic [PickWidth-1:0] req);
  logic [PickWidth-1:0] onehot;
  onehot = req & (~req + PickWidth'(1));
  pick_lowest[PickBits] = req != '0;
  for (int b = 0; b < PickBits; b++) begin
    pick_lowest[b] = (onehot & PickIndexMasks[b*PickWidth +: PickWidth]) != '0;
  end
endfunction

// Round robin: {valid, index of the first set bit at or after ptr, wrapping around}.
function automatic logic [PickBits:0] pick_round_robin(input logic [PickWidth-1:0] req,
                                                       input logic [PickBits-1:0] ptr);
  logic [PickWidth-1:0] upper;
  upper = req & ~((PickWidth'(1) << ptr) - PickWidth'(1));
  pick_round_robin = pick_lowest((upper != '0) ? upper : req);
endfunction
