# mantis: a plain Makefile (GNU make).
#
#   make            build build/mantis (after `make setup` on a fresh machine)
#   make check      set-up, build, then every test layer, plain and under ASan+UBSan
#   make demo       set-up, build, then the main job on a bundled example (EXAMPLE=NAME, default
#                   spamfilter)
#   make bench      set-up (and bench/setup: the reference solvers), build, then the benchmarks
#                   (slow; prints the machine they ran on)
#   make clean      remove build/
#
# BUILD selects the output folder; SAN=1 builds with AddressSanitizer and UBSan (make check-asan);
# V=1 shows the compiler command lines.

MANTIS_VERSION = 0.1.0

CC      = clang-14
BUILD  ?= build
SAN    ?= 0
V      ?= 0
ifeq ($(V),0)
Q       = @
endif

WARN     = -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wvla -Wpointer-arith -Wimplicit-fallthrough
OPT      = -O2
ifeq ($(SAN),1)
OPT      = -O1
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# the sanitizers' defaults (src/sanitizer_options.c), linked into each sanitized binary
SAN_OBJ  = $(BUILD)/obj/sanitizer_options.o
endif
LLVM_CONFIG = llvm-config-14
CPPFLAGS = -Isrc -I$(shell $(LLVM_CONFIG) --includedir) -D_GNU_SOURCE \
           -DMANTIS_VERSION='"$(MANTIS_VERSION)"'
# DWARF 4: valgrind 3.19 (tests/slices/run runs the slicer under it) cannot read clang 14's DWARF 5
CFLAGS   = -std=c11 $(OPT) -gdwarf-4 $(WARN) $(SANFLAGS) -MMD -MP
# Position-dependent executables: LLVM is linked statically (LIBS), and a position-independent
# one would relocate its data at every start.
LDFLAGS  = $(SANFLAGS) -no-pie

CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS   = $(shell pkg-config --libs check)

# The library: every module but the command line. Subcommands are src/cmd_*.c.
LIB_SRC  = src/error.c src/util.c src/inputs.c src/runner.c src/dataset.c src/prep.c \
           src/linalg.c src/lasso.c src/learn.c src/foba.c src/spore.c src/model.c src/fit.c src/rate.c \
           src/ir.c src/cfg.c src/manifest.c src/instrument.c src/build.c src/store.c src/profile.c src/cc.c \
           src/extmodel.c src/pta.c
LIB_SRC += src/equiv.c src/budget.c src/members.c src/snapshot.c
LIB_SRC += src/cdep.c src/sdg.c src/slice.c src/fuse.c src/promote.c src/prune.c src/predictor.c src/train.c src/descriptor.c src/field.c src/probe.c src/blackbox.c src/baseline.c
LIB_SRC += src/count.c src/platform.c src/calibrate.c
LIB_SRC += src/report.c src/exportc.c src/evaldb.c src/drift.c src/pace.c src/sampler.c src/sampledb.c
LIB_SRC += src/codegen.c src/solib.c
LIB_SRC += src/space.c src/explore.c src/infer.c src/mars.c src/cart.c src/kriging.c src/gp.c src/poly.c src/measure.c src/select.c
# Every library but the C library's linked statically: libLLVM-14.so's 368,525 relative
# relocations took 70 ms of the 74 ms every mantis command spent starting (`mantis --version`,
# 2026-12-05; 17 ms so), and SQLite, LAPACK, libgfortran and libstdc++ shared took a third of
# what was left (27 -> 19 ms, 2026-12-06): what `mantis cc` pays per compile and `mantis predict`
# per prediction. The interpreter is the unit tests' (they run IR in it; it calls libffi); an
# archive adds only the members used. LLVM's system libraries are its `-l` ones (libz3, named by
# path, is never used). The ASan build keeps them shared: its runtime intercepts calls into shared
# libraries (the C++ runtime's __cxa_throw among them), and its start is no user's cost.
LLVM_COMPONENTS = core bitreader bitwriter analysis irreader linker support target x86 ipo passes \
                  interpreter
LLVM_ARCHIVES = -L$(shell $(LLVM_CONFIG) --libdir) \
                $(shell $(LLVM_CONFIG) --link-static --libs $(LLVM_COMPONENTS))
C_LIBS     = -lrt -ldl -lpthread -lm
LLVM_SYSTEM_LIBS = $(filter-out $(C_LIBS),$(filter -l%,$(shell $(LLVM_CONFIG) --link-static --system-libs)))
OTHER_LIBS = -lsqlite3 -ljansson -llapacke -llapack -lblas
ifeq ($(SAN),1)
LIBS = $(LLVM_ARCHIVES) -Wl,--as-needed $(LLVM_SYSTEM_LIBS) -lffi -lstdc++ -Wl,--no-as-needed \
       $(OTHER_LIBS) $(C_LIBS)
else
LIBS = $(LLVM_ARCHIVES) -Wl,-Bstatic $(LLVM_SYSTEM_LIBS) -lffi -lstdc++ $(OTHER_LIBS) \
       -lgfortran -lquadmath -Wl,-Bdynamic -static-libgcc $(C_LIBS)
endif
CLI_SRC  = src/main.c src/cli.c $(wildcard src/cmd_*.c)
TEST_SRC = $(wildcard tests/unit/*.c)
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
CLI_OBJ  = $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_OBJ = $(TEST_SRC:tests/unit/%.c=$(BUILD)/obj/tests/%.o)

# Example programs: examples/NAME/src/*.c -> build/examples/NAME/NAME, gen.c -> .../gen.
EXAMPLES     = $(patsubst examples/%/gen.c,%,$(wildcard examples/*/gen.c))
EXAMPLE_BINS = $(foreach e,$(EXAMPLES),$(BUILD)/examples/$(e)/$(e) $(BUILD)/examples/$(e)/gen)
EXAMPLE_CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Wpedantic -Werror

.PHONY: all setup check check-asan demo bench clean examples tests
.DEFAULT_GOAL := all

all: $(BUILD)/mantis $(BUILD)/mantis-predict $(BUILD)/rt/mantisrt.o $(BUILD)/rt/slicert.o $(BUILD)/rt/sandbox.o \
     $(BUILD)/rt/inproc.o $(BUILD)/mantis-host

setup:
	@scripts/setup

check: setup
	@$(MAKE) --no-print-directory all examples tests
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan SAN=1 all tests
	@tests/run $(BUILD) $(BUILD)/asan

check-asan: setup
	@$(MAKE) --no-print-directory examples
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan SAN=1 all tests
	@tests/run --examples $(BUILD)/examples $(BUILD)/asan

demo: setup
	@$(MAKE) --no-print-directory all examples $(BUILD)/bench/spread
	@scripts/demo $(BUILD) $(EXAMPLE)

bench: setup
	@bench/setup
	@$(MAKE) --no-print-directory all examples $(BUILD)/bench/spread $(BUILD)/bench/model \
		$(BUILD)/bench/store $(BUILD)/bench/overhead $(BUILD)/bench/explore
	@bench/run $(BUILD)

clean:
	rm -rf build

examples: $(EXAMPLE_BINS)
tests: $(BUILD)/unit-tests

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	@[ "$(V)" != 0 ] || echo "  CC      $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/tests/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	@[ "$(V)" != 0 ] || echo "  CC      $@"
	$(Q)$(CC) $(CPPFLAGS) $(CHECK_CFLAGS) $(CFLAGS) -c -o $@ $<

# The runtimes linked into instrumented programs: plain C, no sanitizers, position independent.
# mantisrt.o (DIR/inst; DIR/sandboxed adds sandbox.o), sandbox.o (no file changed) and slicert.o
# (evaluators): rt/slicert.c and rt/sandbox.c in one relocatable object, so that what links
# "slicert.o" gets both.
RT_CFLAGS = -std=c11 -O2 -fPIC $(WARN)

$(BUILD)/rt/%.o: rt/%.c
	@mkdir -p $(@D)
	@[ "$(V)" != 0 ] || echo "  CC      $@"
	$(Q)$(CC) $(RT_CFLAGS) -c -o $@ $<

$(BUILD)/rt/parts/slicert.o: rt/slicert.c
	@mkdir -p $(@D)
	@[ "$(V)" != 0 ] || echo "  CC      $@"
	$(Q)$(CC) $(RT_CFLAGS) -c -o $@ $<

$(BUILD)/rt/slicert.o: $(BUILD)/rt/parts/slicert.o $(BUILD)/rt/sandbox.o
	@[ "$(V)" != 0 ] || echo "  LD -r   $@"
	$(Q)ld -r -o $@ $^

$(BUILD)/libmantis.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/mantis: $(CLI_OBJ) $(SAN_OBJ) $(BUILD)/libmantis.a
	@[ "$(V)" != 0 ] || echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# mantis predict alone, linked without LLVM (src/predict_main.c): no libLLVM start-up per call.
# And statically (but under the sanitizers, which need the shared C library): a scheduler runs it
# once per job, and the dynamic loader took 4.6 ms of its 7.4 ms start (LAPACK, libgfortran and
# their relocations; the static binary starts in 2.7 ms). The static C library warns that
# SQLite's extension loading (never used) and solib.c (an evaluator hosted in process) call
# dlopen; those warnings are left out.
PREDICT_OBJ = $(BUILD)/obj/predict_main.o $(BUILD)/obj/cli.o $(BUILD)/obj/cmd_predict.o \
              $(BUILD)/obj/cmd_platform.o $(BUILD)/obj/cmd_eval.o
ifeq ($(SAN),1)
PREDICT_LIBS = $(OTHER_LIBS) -lm
else
PREDICT_LIBS = -static $(OTHER_LIBS) -lgfortran -lquadmath -lm
endif
$(BUILD)/mantis-predict: $(PREDICT_OBJ) $(SAN_OBJ) $(BUILD)/libmantis.a
	@[ "$(V)" != 0 ] || echo "  LINK    $@"
	$(Q)$(CC) $(SANFLAGS) -o $@ $^ $(PREDICT_LIBS) 2>$@.log; status=$$?; \
	grep -v -e "in function .unixDlOpen" -e "(solib.o): in function" -e "Using 'dlopen' in statically linked" $@.log >&2; \
	rm -f $@.log; exit $$status

# mantis-host: an evaluator's shared-object form run in its process (src/host_main.c); dynamic
# (dlopen then reuses the loaded C library), with no library whose relocations slow its start,
# and never sanitized, in the ASan build too: it stands in for an evaluator, and the object's
# calls of qsort and the like would bind to the sanitizer's interceptors, which call a
# comparator other times than the C library (tests/slices/callbacks.c counted 1602 against 1503).
HOST_SRC = src/host_main.c src/solib.c src/runner.c src/inputs.c src/util.c src/error.c
$(BUILD)/mantis-host: $(HOST_SRC)
	@mkdir -p $(@D)
	@[ "$(V)" != 0 ] || echo "  LINK    $@"
	$(Q)$(CC) $(CPPFLAGS) -std=c11 -O2 $(WARN) -o $@ $(HOST_SRC) -Wl,--as-needed -lm

$(BUILD)/unit-tests: $(TEST_OBJ) $(SAN_OBJ) $(BUILD)/libmantis.a
	@[ "$(V)" != 0 ] || echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LIBS)

# Benchmark programs: bench/NAME.c -> build/bench/NAME, linked with the library.
$(BUILD)/bench/%: bench/%.c $(SAN_OBJ) $(BUILD)/libmantis.a
	@mkdir -p $(@D)
	@[ "$(V)" != 0 ] || echo "  LINK    $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

define example_rules
$(BUILD)/examples/$(1)/$(1): $(wildcard examples/$(1)/src/*.c examples/$(1)/src/*.h)
	@mkdir -p $$(@D)
	@[ "$(V)" != 0 ] || echo "  EXAMPLE $$@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -o $$@ $(wildcard examples/$(1)/src/*.c) -lm
$(BUILD)/examples/$(1)/gen: examples/$(1)/gen.c
	@mkdir -p $$(@D)
	@[ "$(V)" != 0 ] || echo "  EXAMPLE $$@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -o $$@ $$< -lm
endef
$(foreach e,$(EXAMPLES),$(eval $(call example_rules,$(e))))

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
