#include "fp/scalar_ops.h"

#include "fp/arith.h"
#include "fp/compare.h"
#include "fp/convert.h"

namespace tessera::fp {

uint32_t F32Add(uint32_t a, uint32_t b, uint8_t& flags) { return Add<F32>(a, b, flags); }
uint32_t F32Sub(uint32_t a, uint32_t b, uint8_t& flags) { return Sub<F32>(a, b, flags); }
uint32_t F32Mul(uint32_t a, uint32_t b, uint8_t& flags) { return Mul<F32>(a, b, flags); }
uint32_t F32MulAdd(uint32_t a, uint32_t b, uint32_t c, uint8_t& flags) {
  return MulAdd<F32>(a, b, c, flags);
}
uint32_t F32Min(uint32_t a, uint32_t b, uint8_t& flags) { return Min<F32>(a, b, flags); }
uint32_t F32Max(uint32_t a, uint32_t b, uint8_t& flags) { return Max<F32>(a, b, flags); }
bool F32Lt(uint32_t a, uint32_t b, uint8_t& flags) { return Lt<F32>(a, b, flags); }
bool F32Le(uint32_t a, uint32_t b, uint8_t& flags) { return Le<F32>(a, b, flags); }
bool F32Eq(uint32_t a, uint32_t b, uint8_t& flags) { return Eq<F32>(a, b, flags); }
uint32_t F32Neg(uint32_t a) { return Neg<F32>(a); }
uint32_t F32Abs(uint32_t a) { return Abs<F32>(a); }
uint32_t F32Div(uint32_t a, uint32_t b, uint8_t& flags) { return Div<F32>(a, b, flags); }
uint32_t F32Sqrt(uint32_t a, uint8_t& flags) { return Sqrt<F32>(a, flags); }

uint16_t F16Add(uint16_t a, uint16_t b, uint8_t& flags) { return Add<F16>(a, b, flags); }
uint16_t F16Sub(uint16_t a, uint16_t b, uint8_t& flags) { return Sub<F16>(a, b, flags); }
uint16_t F16Mul(uint16_t a, uint16_t b, uint8_t& flags) { return Mul<F16>(a, b, flags); }
uint16_t F16MulAdd(uint16_t a, uint16_t b, uint16_t c, uint8_t& flags) {
  return MulAdd<F16>(a, b, c, flags);
}
uint16_t F16Min(uint16_t a, uint16_t b, uint8_t& flags) { return Min<F16>(a, b, flags); }
uint16_t F16Max(uint16_t a, uint16_t b, uint8_t& flags) { return Max<F16>(a, b, flags); }
bool F16Lt(uint16_t a, uint16_t b, uint8_t& flags) { return Lt<F16>(a, b, flags); }
bool F16Le(uint16_t a, uint16_t b, uint8_t& flags) { return Le<F16>(a, b, flags); }
bool F16Eq(uint16_t a, uint16_t b, uint8_t& flags) { return Eq<F16>(a, b, flags); }
uint16_t F16Neg(uint16_t a) { return Neg<F16>(a); }
uint16_t F16Abs(uint16_t a) { return Abs<F16>(a); }
uint16_t F16Div(uint16_t a, uint16_t b, uint8_t& flags) { return Div<F16>(a, b, flags); }
uint16_t F16Sqrt(uint16_t a, uint8_t& flags) { return Sqrt<F16>(a, flags); }

uint32_t F16ToF32(uint16_t a, uint8_t& flags) { return ConvertFloat<F16, F32>(a, flags); }
uint16_t F32ToF16(uint32_t a, uint8_t& flags) { return ConvertFloat<F32, F16>(a, flags); }
int32_t F32ToI32(uint32_t a, uint8_t& flags) {
  return static_cast<int32_t>(ToI32TowardZero<F32>(a, flags));
}
int32_t F16ToI32(uint16_t a, uint8_t& flags) {
  return static_cast<int32_t>(ToI32TowardZero<F16>(a, flags));
}
uint32_t I32ToF32(int32_t a, uint8_t& flags) {
  return FromI32<F32>(static_cast<uint32_t>(a), flags);
}
uint16_t I32ToF16(int32_t a, uint8_t& flags) {
  return FromI32<F16>(static_cast<uint32_t>(a), flags);
}

}  // namespace tessera::fp
