# vm/vm.mk -- the Drip VM: build/drip and its test, fuzz and bench builds.
# Included by the top-level Makefile; paths are relative to the repo root.

VM_SRC_DIR := vm/src
VM_SOURCES := $(wildcard $(VM_SRC_DIR)/*.c)
VM_HEADERS := $(wildcard $(VM_SRC_DIR)/*.h)
VM_CFLAGS  := $(CWARN) -O2 -g
VM_DEBUG   := $(CWARN) -O1 -g -fno-omit-frame-pointer

all: $(BUILD)/drip

# One binary per build flavour, each compiled from all sources in one go
# (small enough that per-object rules buy nothing, and the whole-program view
# lets the compiler inline across files).
$(BUILD)/drip: $(VM_SOURCES) $(VM_HEADERS) vm/vm.mk
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) -o $@ $(VM_SOURCES)

# Instrumentation compiled out: the reference for "free when off".
$(BUILD)/drip-noinstr: $(VM_SOURCES) $(VM_HEADERS) vm/vm.mk
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) -DDRIP_NO_INSTRUMENT -o $@ $(VM_SOURCES)

# A switch instead of computed goto, to check the portable path still works.
$(BUILD)/drip-switch: $(VM_SOURCES) $(VM_HEADERS) vm/vm.mk
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) -DDRIP_NO_COMPUTED_GOTO -o $@ $(VM_SOURCES)

$(BUILD)/drip-gcstress: $(VM_SOURCES) $(VM_HEADERS) vm/vm.mk
	@mkdir -p $(@D)
	$(CC) $(VM_DEBUG) -DDRIP_STRESS_GC -o $@ $(VM_SOURCES)

$(BUILD)/drip-asan: $(VM_SOURCES) $(VM_HEADERS) vm/vm.mk
	@mkdir -p $(@D)
	$(CC) $(VM_DEBUG) $(SANITIZE) -fno-sanitize-recover=all -o $@ $(VM_SOURCES)

.PHONY: vm-builds
vm-builds: $(BUILD)/drip $(BUILD)/drip-noinstr $(BUILD)/drip-switch $(BUILD)/drip-gcstress $(BUILD)/drip-asan
