/* What CMSIS's core_cm7.h asks of a SoC: an MPU and a double-precision FPU; no caches are
 * modelled by QEMU (none declared). */
#ifndef TM_SOC_MPS2_AN500_H
#define TM_SOC_MPS2_AN500_H

#define __MPU_PRESENT 1
#define __FPU_PRESENT 1
#define __FPU_DP 1

#endif
