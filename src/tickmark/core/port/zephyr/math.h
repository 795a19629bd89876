/* Zephyr's minimal C library has no mathematical functions. The port links picolibc's C library
 * (the board's multilib, LIBS in port.mk) after Zephyr's for the few the core's benchmarks call
 * (nbench's Fourier, neural-net and floating-point workloads); these are their declarations. */
#ifndef TM_ZEPHYR_MATH_H
#define TM_ZEPHYR_MATH_H

#include_next <math.h>

double fabs(double x);
double sqrt(double x);
double sin(double x);
double cos(double x);
double exp(double x);
double log(double x);
double pow(double x, double y);
double ldexp(double x, int e);
double floor(double x);

#endif
