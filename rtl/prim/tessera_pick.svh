// Pickers over a mask of colors (NumColors wide), as functions so that an allocator can chain
// them inside one always_comb. Include inside a module body after tessera_pkg_use.svh. No
// run-time per-bit loop: the lowest set bit is isolated with x & -x and encoded with constant
// masks.

// Masks of the positions whose index has bit b set, bit b's mask at [b*NumColors +: NumColors].
function automatic logic [ColorBits*NumColors-1:0] pick_index_masks();
  for (int b = 0; b < ColorBits; b++) begin
    for (int i = 0; i < NumColors; i++) pick_index_masks[b*NumColors + i] = ((i >> b) & 1) == 1;
  end
endfunction
localparam logic [ColorBits*NumColors-1:0] PickIndexMasks = pick_index_masks();

// Fixed priority: {valid, index of the lowest set bit}.
function automatic logic [ColorBits:0] pick_lowest(input logic [NumColors-1:0] req);
  logic [NumColors-1:0] onehot;
  onehot = req & (~req + NumColors'(1));
  pick_lowest[ColorBits] = req != '0;
  for (int b = 0; b < ColorBits; b++) begin
    pick_lowest[b] = (onehot & PickIndexMasks[b*NumColors +: NumColors]) != '0;
  end
endfunction

// Round robin: {valid, index of the first set bit at or after ptr, wrapping around}.
function automatic logic [ColorBits:0] pick_round_robin(input logic [NumColors-1:0] req,
                                                        input logic [ColorBits-1:0] ptr);
  logic [NumColors-1:0] upper;
  upper = req & ~((NumColors'(1) << ptr) - NumColors'(1));
  pick_round_robin = pick_lowest((upper != '0) ? upper : req);
endfunction
