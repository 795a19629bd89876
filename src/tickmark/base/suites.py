"""Named suites: a suite is a list of benchmark patterns (fnmatch style), one entry per suite."""

SUITES = {
    # a quick look at every side of a machine: syscalls, the RTOS-study primitives, a pipe
    # round trip, and the ten nbench kernels (with their indices)
    "default": [
        "loop.control",
        "sys.*",
        "heap.malloc_free_4",
        "sync.mutex",
        "thread.create_join",
        "sched.yield_switch",
        "sched.pipe_pingpong",
        "cpu.*",
    ],
    "os": ["sched.*", "sync.*", "thread.*", "heap.*", "proc.*", "signal.*", "ipc.*", "fs.*", "timer.*"],
    # the RTOS-vs-Linux study: heap, mutex, thread create/join, the yield switch, and the two
    # round trips between threads on one CPU (semaphores, a message queue); a software-raised
    # interrupt to its handler, back to the thread, to a thread its handler wakes, and the same
    # wake-up posted by a thread (not an interrupt: what Linux user space can measure); the control loop
    "rtos-study": [
        "heap.malloc_free_4",
        "sync.mutex",
        "thread.create_join",
        "sched.yield_switch",
        "sync.sem_pingpong[cross=0]",
        "ipc.queue_pingpong[cross=0]",
        "irq.entry",
        "irq.return",
        "irq.wake",
        "sched.wake_prio",
        "loop.control",
    ],
    # Thread-Metric's eight figures as benchmarks of our own (docs/thread-metric.md): each one's
    # cost per operation, and divided by basic processing's, the yardstick of the same boot
    "thread-metric": [
        "threadmetric.cooperative",
        "threadmetric.preemptive",
        "threadmetric.interrupt",
        "threadmetric.interrupt_preempt",
        "threadmetric.message",
        "threadmetric.sync",
        "threadmetric.memory",
        "threadmetric.basic",
    ],
    "nbench": ["cpu.*"],  # the ten nbench 2.2.3 workloads; `show` adds the BYTEmark indices
    "memory": ["mem.*", "memfn.*"],
}


def patterns_for(name):
    from .errors import TickmarkError

    if name not in SUITES:
        raise TickmarkError(f"unknown suite '{name}' (known: {', '.join(sorted(SUITES))})")
    return list(SUITES[name])
