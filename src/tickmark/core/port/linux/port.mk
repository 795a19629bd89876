# Build settings of the Linux port: port/posix underneath (a file here replaces its file of the
# same name), and what differs between CPUs under Linux, from arch/$(ARCH)/ (arch/generic/ where
# that CPU has no file): the program counter in a signal handler's saved context, which
# trap.abort and trap.undef move past the faulting instruction.
PORT_EXTRA_SRCS = $(call overlay,port/linux/arch/generic,port/linux/arch/$(ARCH))
