// The FMAC's operations one scalar at a time, by name: what an instruction interpreter calls for
// a scalar floating-point instruction. Each function ORs the flags it raises (arch::FpFlag bits,
// see flags.h) into `flags`, so a caller can pass its sticky flag register directly. Semantics:
// docs/fmac.md, and the comments in arith.h, compare.h and convert.h. To run FpCase words (f16
// lane pairs included) use Execute (execute.h) instead.
#pragma once

#include <cstdint>

namespace tessera::fp {

uint32_t F32Add(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t F32Sub(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t F32Mul(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t F32MulAdd(uint32_t a, uint32_t b, uint32_t c, uint8_t& flags);  // a * b + c, one rounding
uint32_t F32Min(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t F32Max(uint32_t a, uint32_t b, uint8_t& flags);
bool F32Lt(uint32_t a, uint32_t b, uint8_t& flags);  // signaling
bool F32Le(uint32_t a, uint32_t b, uint8_t& flags);  // signaling
bool F32Eq(uint32_t a, uint32_t b, uint8_t& flags);  // quiet
uint32_t F32Neg(uint32_t a);
uint32_t F32Abs(uint32_t a);
uint32_t F32Div(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t F32Sqrt(uint32_t a, uint8_t& flags);

uint16_t F16Add(uint16_t a, uint16_t b, uint8_t& flags);
uint16_t F16Sub(uint16_t a, uint16_t b, uint8_t& flags);
uint16_t F16Mul(uint16_t a, uint16_t b, uint8_t& flags);
uint16_t F16MulAdd(uint16_t a, uint16_t b, uint16_t c, uint8_t& flags);
uint16_t F16Min(uint16_t a, uint16_t b, uint8_t& flags);
uint16_t F16Max(uint16_t a, uint16_t b, uint8_t& flags);
bool F16Lt(uint16_t a, uint16_t b, uint8_t& flags);
bool F16Le(uint16_t a, uint16_t b, uint8_t& flags);
bool F16Eq(uint16_t a, uint16_t b, uint8_t& flags);
uint16_t F16Neg(uint16_t a);
uint16_t F16Abs(uint16_t a);
uint16_t F16Div(uint16_t a, uint16_t b, uint8_t& flags);
uint16_t F16Sqrt(uint16_t a, uint8_t& flags);

uint32_t F16ToF32(uint16_t a, uint8_t& flags);
uint16_t F32ToF16(uint32_t a, uint8_t& flags);
int32_t F32ToI32(uint32_t a, uint8_t& flags);  // toward zero, saturating
int32_t F16ToI32(uint16_t a, uint8_t& flags);  // toward zero, saturating
uint32_t I32ToF32(int32_t a, uint8_t& flags);
uint16_t I32ToF16(int32_t a, uint8_t& flags);

}  // namespace tessera::fp
