/* The hello record: the first record of every run (docs/protocol.md), what this target offers
 * (port, compiler, timer, counters, the OS's names) and the instances in the order the run takes
 * them. tickmark-core run and tickmark-core exec both start with it. */
#include <stdio.h>

#include "runner.h"
#include "tickmark/osal.h"

void tm_emit_hello(const tm_options *opt, const tm_env *env, const tm_instance *insts, int n)
{
    tm_json j;
    static char sys[128], rel[128], mach[64];
    int i;
    tm_json_begin(&j, stdout, "hello");
    tm_json_int(&j, "v", 1);
    tm_json_str(&j, "core", TM_VERSION);
    tm_json_str(&j, "target", tm_build_target);
    tm_json_str(&j, "port", tm_port_name());
    tm_json_str(&j, "cc", tm_build_cc);
    tm_json_str(&j, "cflags", tm_build_cflags);
    tm_json_str(&j, "memfn", tm_build_memfn);
    tm_json_uint(&j, "seed", opt->seed);
    tm_json_int(&j, "samples", opt->samples);
    tm_json_int(&j, "sample_ms", opt->sample_ms);
    tm_json_str(&j, "clock", tm_os_clock_name());
    tm_json_uint(&j, "clock_res_ns", tm_os_clock_res_ns());
    tm_json_uint(&j, "timer_overhead_ps", env->timer_overhead_ps);
    tm_json_uint(&j, "loop_overhead_ps", env->loop_overhead_ps);
    tm_json_uint(&j, "loop_overhead_mcyc", env->loop_overhead_mcyc);
    if (opt->host_clock)
        tm_json_int(&j, "host_clock", 1);
    tm_json_str(&j, "ticks", tm_arch_ticks_name());
    tm_json_uint(&j, "ticks_khz", tm_ticks_khz());
    tm_json_uint(&j, "fcore_khz", env->fcore_khz);
    tm_json_str(&j, "cycles", env->cycles_method);
    tm_json_int(&j, "kernel_excluded", tm_ctr_kernel_excluded());
    tm_json_int(&j, "counters_grouped", tm_ctr_grouped());
    tm_json_str(&j, "counters_unsupported", tm_ctr_unsupported());
    tm_json_open(&j, "counters", '[');
    for (i = 0; i < tm_ctr_count(); i++)
        tm_json_str(&j, NULL, tm_ctr_name(i));
    tm_json_close(&j, ']');
    tm_json_int(&j, "cpus", tm_os_cpu_count());
    tm_json_uint(&j, "page_size", (uint64_t)tm_os_page_size());
    if (tm_os_uname(sys, rel, mach, sizeof sys) == 0) {
        tm_json_str(&j, "os", sys);
        tm_json_str(&j, "kernel", rel);
        tm_json_str(&j, "machine", mach);
    }
    tm_json_int(&j, "cpu", opt->cpu);
    tm_arch_tlb_json(&j);
    tm_json_open(&j, "order", '[');
    for (i = 0; i < n; i++)
        tm_json_str(&j, NULL, insts[i].key);
    tm_json_close(&j, ']');
    tm_json_end(&j);
}
