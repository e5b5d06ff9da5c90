# fuzz.mk - libFuzzer harnesses (fuzz/README.md), included by the Makefile.
#
#   make fuzz               build them and run each for FUZZ_S seconds
#   make fuzz FUZZ_S=600    longer
#   make fuzz-build         build only: build/fuzz/fuzz_<reader>
#
# Everything is built with clang (FUZZ_CC) into build/fuzz/, with ASan and
# UBSan including float-cast-overflow, every report fatal.  clang's
# -Wsometimes-uninitialized stays a warning (fuzz/README.md).  bench/ needs
# mpi.h: its files go through mpicc with clang as the compiler underneath.

FUZZ_CC   ?= clang
FUZZ_S    ?= 60
FUZZ_SAN   = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -Wno-error=sometimes-uninitialized -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
              -fsanitize=fuzzer-no-link -iquote src -iquote models -iquote fit -iquote bench \
              -DFUZZ_DATA_DIR='"$(CURDIR)/data"' -MMD -MP
FUZZ_MPICC = OMPI_CC=$(FUZZ_CC) MPICH_CC=$(FUZZ_CC) $(MPICC)
FUZZ_LD    = -fsanitize=fuzzer $(FUZZ_SAN)
FUZZ_DIR   = build/fuzz

fuzz_obj = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))
FUZZ_HARNESSES := $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS      := $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/%)
FUZZ_LIBS      := $(FUZZ_DIR)/libpredict.a $(FUZZ_DIR)/libfit.a $(FUZZ_DIR)/libmodels.a \
                  $(FUZZ_DIR)/libcore.a

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)
fuzz: fuzz-build
	sh fuzz/run.sh $(FUZZ_S)

$(FUZZ_DIR)/obj/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_MPICC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/fuzz/fuzz_opts_bench.o: fuzz/fuzz_opts_bench.c
	@mkdir -p $(dir $@)
	$(FUZZ_MPICC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/%.a:
	rm -f $@ && $(AR) rcs $@ $^
$(FUZZ_DIR)/libcore.a: $(call fuzz_obj,$(CORE_SRC))
$(FUZZ_DIR)/libmodels.a: $(call fuzz_obj,$(MODELS_SRC))
$(FUZZ_DIR)/libfit.a: $(call fuzz_obj,$(FIT_SRC))
$(FUZZ_DIR)/libpredict.a: $(call fuzz_obj,$(PREDICT_SRC))
$(FUZZ_DIR)/libbench.a: $(call fuzz_obj,$(BENCH_SRC))

$(FUZZ_DIR)/fuzz_opts_bench: $(call fuzz_obj,fuzz/fuzz_opts_bench.c) $(FUZZ_DIR)/libbench.a $(FUZZ_LIBS)
	$(FUZZ_MPICC) $(FUZZ_LD) $^ $(VERBS_LIBS) $(HWLOC_LIBS) $(LIBS) -o $@
$(FUZZ_DIR)/fuzz_%: $(call fuzz_obj,fuzz/fuzz_%.c) $(FUZZ_LIBS)
	$(FUZZ_CC) $(FUZZ_LD) $^ $(LIBS) -o $@
