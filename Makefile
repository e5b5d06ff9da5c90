# lop - LoP/LogP barrier modelling suite.  See README.md.
#
#   make                 build bin/lopbench, bin/lopfit, bin/lopredict
#   make check           build and run the TAP suite with prove
#   make check-quick     the same without the VM, the cluster, the demos and the fuzzers
#   make validate MACHINE=lab NODES=8 NIC=5mbit   the fidelity table (scripts/validate.sh)
#   make check TESTS="tests/10-lopbench-mpi.t ./tests/bin/test_stats"  some of it
#   make check SANITIZE=1  the same under AddressSanitizer + UBSan
#   make fuzz FUZZ_S=60  libFuzzer harnesses of every reader, N seconds each (fuzz/README.md)
#   make install PREFIX=/usr/local
#   make clean
#
# Layout: src/*.c is the core library; models/ is the model library (linked
# into lopbench too, so the barrier executors run lopredict's schedules); in
# bench/, fit/ and predict/ main.c is the tool (lopbench, lopfit, lopredict)
# and every other .c file is a library of that directory.
# tests/unit/test_*.c are TAP programs (mpi_*.c ones are built with mpicc
# and linked with lopbench's library, predict_*.c with lopredict's);
# tests/*.t are TAP scripts.

CC       ?= cc
MPICC    ?= mpicc
PREFIX   ?= /usr/local
# Per-file times in every run (CI logs show what dominates).
PROVE_FLAGS ?= --timer
CFLAGS   ?= -O2 -g
SANITIZE ?=

# -Wno-missing-field-initializers: an option row (src/cli.h) or a descriptor
# names the fields it uses and C zeroes the rest; -Wextra would make every
# short row spell out every later field.
WARN      = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -iquote src -iquote models -iquote fit -iquote bench -iquote predict -iquote tests -MMD -MP
ifneq ($(SANITIZE),)
# float-cast-overflow: gcc's "undefined" leaves it out, and a cast of an
# out-of-range double is exactly the silent wrong number lop must not print.
ALL_CFLAGS += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
              -fno-sanitize-recover=undefined,float-cast-overflow
LDFLAGS   += -fsanitize=address,undefined,float-cast-overflow
endif
# MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc >= 11 checks
# against the array parameters of MPICH's prototypes: a false positive that
# MPICH will not change (pmodels/mpich#5687).  Only for the files mpicc builds.
MPI_CFLAGS = -Wno-stringop-overflow
LIBS      = -lgsl -lgslcblas -lm
# librdmacm: multicast joins (bench/ibmcast.c; on RoCE they join the IP group).
VERBS_LIBS = -libverbs -lrdmacm
# lopbench's placement (bench/place_gather.c): sockets and NUMA nodes from hwloc.
HWLOC_LIBS = -lhwloc

# Objects of a different flag set or MPI live in their own directory, so switching
# SANITIZE on or off rebuilds everything instead of mixing objects.
FLAVOR  := $(shell printf '%s' '$(MPICC) $(ALL_CFLAGS) $(LDFLAGS)' | cksum | cut -d' ' -f1)
BUILD   := build/$(FLAVOR)

# Where the programs go: BIN=build/mpich/bin TESTBIN=build/mpich/tests/bin keeps
# a second MPI's build (tests/52-mpich.t) apart from the default one.
BIN     ?= bin
TESTBIN ?= tests/bin
# BIN and TESTBIN are shared by the flavors: relink them when it changes.
FLAVOR_FILE := build/flavor$(if $(filter bin,$(BIN)),,-$(subst /,-,$(BIN)))
$(shell mkdir -p build; echo '$(FLAVOR)' | cmp -s - $(FLAVOR_FILE) || echo '$(FLAVOR)' > $(FLAVOR_FILE))

CORE_SRC   := $(wildcard src/*.c)
MODELS_SRC := $(wildcard models/*.c)
PREDICT_SRC := $(filter-out predict/main.c,$(wildcard predict/*.c))
FIT_SRC    := $(filter-out fit/main.c,$(wildcard fit/*.c))
# bench/report.c prints the modes' results: part of the tool, not of the library.
BENCH_TOOL_SRC := bench/main.c bench/report.c
BENCH_SRC  := $(filter-out $(BENCH_TOOL_SRC),$(wildcard bench/*.c))
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
MPIUNIT_SRC := $(wildcard tests/unit/mpi_*.c)
PREDUNIT_SRC := $(wildcard tests/unit/predict_*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
CORE_LIB   := $(BUILD)/liblopcore.a
MODELS_LIB := $(BUILD)/liblopmodels.a
FIT_LIB    := $(BUILD)/liblopfit.a
PREDICT_LIB := $(BUILD)/liblopredict.a
BENCH_LIB  := $(BUILD)/liblopbench.a

TOOLS := $(BIN)/lopbench $(BIN)/lopfit $(BIN)/lopredict
UNIT_BINS := $(patsubst tests/unit/%.c,$(TESTBIN)/%,$(UNIT_SRC) $(MPIUNIT_SRC) $(PREDUNIT_SRC))
# Interposers, loaded with LD_PRELOAD by the tests (libstopat.so stops rank
# 1 at a known MPI call; libholdstage.so, of libc's rename() and mkstemp(),
# holds a tool in its staging directory or signals it at its probe file),
# and a program that one of them must catch (tests/interpose/).
INTERPOSE := $(TESTBIN)/libsendbuf.so $(TESTBIN)/libstopat.so $(TESTBIN)/libholdstage.so \
             $(TESTBIN)/broken_sends
# The Soft-RoCE VMs' wait for a file, without a shell's sleep loop (tests/vm/vmpoll.c).
VMPOLL := $(TESTBIN)/vmpoll

.PHONY: all check check-quick clean install tools tests deps demo validate figures-mozart
.SECONDARY:
all: tools
tools: $(TOOLS)
tests: $(UNIT_BINS) $(INTERPOSE) $(VMPOLL)

# ---- objects: bench/ and MPI tests are compiled with mpicc, the rest with cc
$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(ALL_CFLAGS) $(MPI_CFLAGS) -c $< -o $@
$(BUILD)/tests/unit/mpi_%.o: tests/unit/mpi_%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(ALL_CFLAGS) $(MPI_CFLAGS) -c $< -o $@
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/%.a:
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
$(CORE_LIB): $(call obj,$(CORE_SRC))
$(MODELS_LIB): $(call obj,$(MODELS_SRC))
$(FIT_LIB): $(call obj,$(FIT_SRC))
$(PREDICT_LIB): $(call obj,$(PREDICT_SRC))
$(BENCH_LIB): $(call obj,$(BENCH_SRC))

# ---- tools
$(BIN)/lopfit: $(call obj,fit/main.c) $(FIT_LIB) $(CORE_LIB) $(FLAVOR_FILE)
	@mkdir -p $(BIN)
	$(CC) $(LDFLAGS) $(filter-out $(FLAVOR_FILE),$^) $(LIBS) -o $@
$(BIN)/lopredict: $(call obj,predict/main.c) $(PREDICT_LIB) $(MODELS_LIB) $(CORE_LIB) $(FLAVOR_FILE)
	@mkdir -p $(BIN)
	$(CC) $(LDFLAGS) $(filter-out $(FLAVOR_FILE),$^) $(LIBS) -o $@
$(BIN)/lopbench: $(call obj,$(BENCH_TOOL_SRC)) $(BENCH_LIB) $(MODELS_LIB) $(CORE_LIB) $(FLAVOR_FILE)
	@mkdir -p $(BIN)
	$(MPICC) $(LDFLAGS) $(filter-out $(FLAVOR_FILE),$^) $(VERBS_LIBS) $(HWLOC_LIBS) $(LIBS) -o $@

# ---- measuring programs (not tests, not installed): fit/measure/NAME.c -> bin/measure-NAME
bin/measure-%: $(call obj,fit/measure/%.c) $(FIT_LIB) $(MODELS_LIB) $(CORE_LIB) $(FLAVOR_FILE)
	@mkdir -p bin
	$(CC) $(LDFLAGS) $(filter-out $(FLAVOR_FILE),$^) $(LIBS) -o $@

# ---- tests
$(TESTBIN)/test_%: $(call obj,tests/unit/test_%.c) $(FIT_LIB) $(MODELS_LIB) $(CORE_LIB) $(FLAVOR_FILE)
	@mkdir -p $(TESTBIN)
	$(CC) $(LDFLAGS) $(filter-out $(FLAVOR_FILE),$^) $(LIBS) -o $@
$(TESTBIN)/predict_%: $(call obj,tests/unit/predict_%.c) $(PREDICT_LIB) $(MODELS_LIB) $(CORE_LIB) $(FLAVOR_FILE)
	@mkdir -p $(TESTBIN)
	$(CC) $(LDFLAGS) $(filter-out $(FLAVOR_FILE),$^) $(LIBS) -o $@
$(TESTBIN)/mpi_%: $(call obj,tests/unit/mpi_%.c) $(BENCH_LIB) $(MODELS_LIB) $(CORE_LIB) $(FLAVOR_FILE)
	@mkdir -p $(TESTBIN)
	$(MPICC) $(LDFLAGS) $(filter-out $(FLAVOR_FILE),$^) $(VERBS_LIBS) $(HWLOC_LIBS) $(LIBS) -o $@
$(TESTBIN)/lib%.so: tests/interpose/%.c $(FLAVOR_FILE)
	@mkdir -p $(TESTBIN)
	$(MPICC) -shared -fPIC $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(MPI_CFLAGS) $(LDFLAGS) $< -o $@
$(VMPOLL): tests/vm/vmpoll.c $(FLAVOR_FILE)
	@mkdir -p $(TESTBIN)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(LDFLAGS) $< -o $@
$(TESTBIN)/broken_sends: tests/interpose/broken_sends.c $(FLAVOR_FILE)
	@mkdir -p $(TESTBIN)
	$(MPICC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(MPI_CFLAGS) $(LDFLAGS) $< -o $@

deps:
	@sh scripts/deps.sh

# Leak reports from inside the MPI library are not ours (tests/lsan.supp); the
# path is quoted for the sanitizers' option parser, which splits at spaces.
PROVE = LANG=C LC_ALL=C LSAN_OPTIONS="suppressions='$(CURDIR)/tests/lsan.supp':print_suppressions=0" \
	  LOP_SANITIZE=$(SANITIZE) prove $(PROVE_FLAGS)
# make check runs two files at a time, then the Soft-RoCE VMs alone, one
# after the other: the emulator's busy-polling ranks need both cores (beside
# other tests the one-VM file took 383 s instead of 165 s here).
VM_TESTS := tests/50-verbs-vm.t tests/51-verbs-hosts.t
ALL_TESTS := $(UNIT_BINS:%=./%) $(sort $(wildcard tests/*.t))
# The longest files first (their times: README, "Other targets"), so that the two jobs
# end together instead of one long file running alone at the end.
LONG_TESTS := tests/70-cluster.t tests/95-fuzz.t tests/71-cluster-levels.t tests/75-slurm.t tests/60-plots.t \
	tests/91-demo-cluster.t tests/16-spaced-checkout.t tests/52-mpich.t tests/22-output-transaction.t
PAR_TESTS := $(LONG_TESTS) $(filter-out $(VM_TESTS) $(LONG_TESTS),$(ALL_TESTS))
# The edit loop leaves out the Soft-RoCE VM, the virtual cluster, the demos
# and the fuzzers.
SLOW_TESTS := $(VM_TESTS) tests/70-cluster.t tests/71-cluster-levels.t tests/72-lab.t \
	tests/73-cluster-twice.t tests/75-slurm.t tests/90-demo.t \
	tests/91-demo-cluster.t tests/95-fuzz.t
# The build before the tests uses every core: on a fresh clone it is part
# of the suite's time.  A make -jN of the caller's is kept (its jobserver).
BUILD_JOBS := $(shell nproc 2>/dev/null || echo 2)
BUILD_J = $(if $(findstring jobserver,$(MAKEFLAGS))$(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS))
check: deps
	@$(MAKE) --no-print-directory $(BUILD_J) tools tests
ifneq ($(TESTS),)
	$(PROVE) $(TESTS)
else
	@rc=0; $(PROVE) -j2 $(PAR_TESTS) || rc=1; $(PROVE) $(VM_TESTS) || rc=1; exit $$rc
endif
check-quick: deps
	@$(MAKE) --no-print-directory $(BUILD_J) tools tests
	$(PROVE) -j2 $(filter-out $(SLOW_TESTS),$(ALL_TESTS))

# The main job end to end on local ranks, or on a virtual cluster of NODES
# nodes (scripts/demo.sh; NP, OVER_NP, OUT, REPS, MODEL, NODES, NIC: given on
# make's command line they reach the script's environment).
demo:
	sh scripts/demo.sh

# How right are the predictions on a machine: the fidelity table
# (scripts/validate.sh; MACHINE=local|tcp|lab|slurm, NODES, NIC, MPI, REPS, STAT, IDLE_US, OUT).
validate:
	sh scripts/validate.sh

# The thesis's figures 2.36, 2.38 and 2.39 from the shipped Mozart set (plots/figures-mozart.sh).
FIGURES_OUT ?= out/figures-mozart
figures-mozart: deps $(BIN)/lopredict $(BIN)/lopfit
	sh plots/figures-mozart.sh $(FIGURES_OUT)

install: tools
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/lop/mozart-2005
	install -m 644 data/mozart-2005/params.csv $(DESTDIR)$(PREFIX)/share/lop/mozart-2005/

clean:
	rm -rf build bin tests/bin

include fuzz/fuzz.mk

-include $(shell find build -name '*.d' 2>/dev/null)
