# regula: build, test, sanitize.  `make run` and `make test` are all a user needs.
#
# Generated C (re2c, Lemon) goes to build/gen and is never committed.
# Missing tools are installed from Debian's packages (see `deps`).

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
# The library's stage folders, in the order of the pipeline: a file includes
# headers of its own stage or an earlier one (tests/stages.sh holds that).
STAGES  := front module compile vm render play api
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -Iinterp $(patsubst %,-Iinterp/%,$(STAGES)) -I$(BUILD)/gen
LDLIBS  := -pthread -lutf8proc -ljansson -lm
# The library's objects: position-independent (they make libregula.so too)
# and hidden but for what the public headers mark REGULA_API.
LIBFLAGS := -fPIC -fvisibility=hidden
# libregula.so's version (REGULA_VERSION) and its soname's major number.
SO_VERSION := $(shell sed -n 's/^\#define REGULA_VERSION "\(.*\)"/\1/p' interp/regula.h)
SO_MAJOR   := $(firstword $(subst ., ,$(SO_VERSION)))
BUILD   ?= build
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

LIB_SRC := $(wildcard $(patsubst %,interp/%/*.c,$(STAGES)))
LIB_HDR := $(wildcard interp/*.h $(patsubst %,interp/%/*.h,$(STAGES)))
GEN_SRC := $(BUILD)/gen/lexer.c $(BUILD)/gen/parser.c
LIB_OBJ := $(patsubst interp/%.c,$(BUILD)/obj/%.o,$(LIB_SRC)) \
           $(BUILD)/obj/lexer.o $(BUILD)/obj/parser.o
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRC))

.PHONY: bench all deps run test test-quick test-plain valgrind-quick sanitize unit golden ruletests clean examples
.PHONY: fuzz fuzz-build replay faults faults-1 faults-2 valgrind editors tokens builtins install uninstall fmt-check
.PHONY: copies stages coverage mutate nvim secrecy native docs manual pictures abi
.PHONY: web serve test-web test-web-if-able secrecy-web
.SECONDARY:

all: deps $(BUILD)/regula $(BUILD)/libregula.so

# ---- dependencies -----------------------------------------------------
# Installs re2c, lemon, libutf8proc-dev and libjansson-dev from Debian when missing.  Every
# rule that runs a generator or the compiler has `| deps` (order-only), so
# that `make -j` never starts one before the packages are there.
deps:
	@tools/deps.sh

# ---- generated front end ----------------------------------------------
$(BUILD)/gen/lexer.c: grammar/lexer.re $(BUILD)/gen/parser.h | deps
	@mkdir -p $(@D)
	re2c -W -Werror --no-generation-date --no-version -8 -i -I /usr/share/re2c/stdlib -o $@ $<

$(BUILD)/gen/parser.c $(BUILD)/gen/parser.h: grammar/parser.y | deps
	@mkdir -p $(BUILD)/gen
	cp grammar/parser.y $(BUILD)/gen/parser.y
	lemon -q -T/usr/share/lemon/lempar.c -d$(BUILD)/gen $(BUILD)/gen/parser.y \
	  || { rm -f $(BUILD)/gen/parser.c $(BUILD)/gen/parser.h; exit 1; }
	@touch $(BUILD)/gen/parser.h   # lemon leaves an unchanged header's old date

# ---- library and CLI --------------------------------------------------
$(BUILD)/obj/%.o: interp/%.c $(LIB_HDR) $(BUILD)/gen/parser.h | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(LIBFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/lexer.o: $(BUILD)/gen/lexer.c $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(LIBFLAGS) $(CFLAGS) -c -o $@ $<

# Lemon's template has unused variables; only its own file is excused.
$(BUILD)/obj/parser.o: $(BUILD)/gen/parser.c $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) -Wno-unused-variable -Wno-unused-but-set-variable $(LIBFLAGS) \
	  $(CFLAGS) -c -o $@ $<

$(BUILD)/libregula.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

# The shared library: libregula.so.X.Y.Z with soname libregula.so.X, and
# the links a program finds it by (tests/abi.sh checks what it exports).
$(BUILD)/libregula.so.$(SO_VERSION): $(LIB_OBJ)
	$(CC) -shared $(CFLAGS) $(LDFLAGS) -Wl,-soname,libregula.so.$(SO_MAJOR) -Wl,--no-undefined \
	  -o $@ $^ $(LDLIBS)

$(BUILD)/libregula.so: $(BUILD)/libregula.so.$(SO_VERSION)
	ln -sf libregula.so.$(SO_VERSION) $(BUILD)/libregula.so.$(SO_MAJOR)
	ln -sf libregula.so.$(SO_VERSION) $@

# The CLI is every tools/*.c (sub-folders such as fuzz/ or bench/ are not).
CLI_SRC := $(wildcard tools/*.c)
CLI_OBJ := $(patsubst tools/%.c,$(BUILD)/cli/%.o,$(CLI_SRC))

$(BUILD)/cli/%.o: tools/%.c $(wildcard tools/*.h) $(LIB_HDR) | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

# The CLI links the shared library, so it can use only what the headers
# export; it finds it beside itself (the build) or in ../lib (installed).
$(BUILD)/regula: $(CLI_OBJ) $(BUILD)/libregula.so
	$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) -L$(BUILD) -lregula \
	  -Wl,-rpath,'$$ORIGIN:$$ORIGIN/../lib' $(LDLIBS)

# A test may add link flags of its own: LDFLAGS_test_NAME.  test_sysfail
# wraps the library's system calls (-Wl,--wrap) to make them fail on demand.
LDFLAGS_test_sysfail := -Wl,--wrap=write,--wrap=fsync,--wrap=close,--wrap=rename,--wrap=open \
  -Wl,--wrap=pread,--wrap=fstat,--wrap=lseek,--wrap=fchmod,--wrap=mkdtemp,--wrap=readlink \
  -Wl,--wrap=posix_spawn,--wrap=posix_spawn_file_actions_init,--wrap=waitpid \
  -Wl,--wrap=posix_spawn_file_actions_addopen,--wrap=posix_spawn_file_actions_adddup2

$(BUILD)/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libregula.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $< $(BUILD)/libregula.a $(LDLIBS) $(LDFLAGS_$*)

# Programs that embed the library through regula.h alone (examples/*.c):
# each is built, run, and its output compared with examples/NAME.expected.
EXAMPLE_BIN := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))

$(BUILD)/examples/%: examples/%.c interp/regula.h $(BUILD)/libregula.a
	@mkdir -p $(@D)
	$(CC) -Iinterp $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libregula.a $(LDLIBS)

examples: $(EXAMPLE_BIN)
	@for e in $(EXAMPLE_BIN); do \
	  n=$$(basename $$e); $$e >$(BUILD)/examples/$$n.out \
	    || { echo "FAIL examples: $$n exits $$?"; exit 1; }; \
	  cmp -s $(BUILD)/examples/$$n.out examples/$$n.expected \
	    || { echo "FAIL examples: $$n differs from examples/$$n.expected"; exit 1; }; \
	done; echo "examples: $(words $(EXAMPLE_BIN)) passed"

# ---- running ------------------------------------------------------------
run: all
	@tools/run-demo.sh $(BUILD)/regula

# ---- tests ---------------------------------------------------------------
unit: $(UNIT_BIN)
	@tools/run-unit.sh $(UNIT_BIN)

golden: $(BUILD)/regula
	@tests/run.sh $(BUILD)/regula
	@tests/fmt.sh $(BUILD)/regula
	@python3 tests/lsp/session.py $(BUILD)/regula
	@python3 tests/lsp/frames.py $(BUILD)/regula
	@tests/unix.sh $(BUILD)/regula
	@tests/odds-sim.sh $(BUILD)/regula
	@tests/variants.sh $(BUILD)/regula
	@tests/limits.sh $(BUILD)/regula
	@tests/onlyfiles.sh $(BUILD)/regula
	@python3 tests/table.py $(BUILD)/regula
	@python3 tests/diff-hunks.py $(BUILD)/regula
	@SECRECY_EVERY=12 python3 tests/secrecy.py $(BUILD)/regula

# A secret stays secret at the table (tests/secrecy.py): every secret
# moment of every bundled rule file with secrets (a few minutes; the quick
# tests check every 12th).
secrecy: $(BUILD)/regula
	@python3 tests/secrecy.py $(BUILD)/regula

# The quick tests: what runs the library (TEST_RUNS and faults), then what
# checks the files and the documents against it (TEST_CHECKS).
TEST_RUNS   := unit golden replay examples
TEST_CHECKS := editors tokens builtins fmt-check copies stages docs manual abi
test-quick: all $(TEST_RUNS) faults $(TEST_CHECKS)

# Every rule file of rules/ and tests/ is in `regula fmt`'s layout
# (`tests/fmt-check.sh build/regula --write` formats them).
fmt-check: $(BUILD)/regula
	@tests/fmt-check.sh $(BUILD)/regula

# How much of each variant and revision repeats its base verbatim (the
# revised Maximus sheet at most 15%).
copies:
	@python3 tests/copies.py

# libregula.so exports only what regula.h and regula_front.h declare, and
# regula.h declares at most 60 functions (tests/abi.sh).
abi: $(BUILD)/libregula.so
	@tests/abi.sh $(BUILD)/libregula.so

# The library's folders draw the pipeline: no file includes a header of a
# later stage, no include cycle (tests/stages.py).
stages:
	@python3 tests/stages.py $(STAGES)

# The native tier against the VM, byte for byte: every golden test in the
# native tier, workloads, limits, fallbacks, the cache (tests/native.sh;
# part of `make test`).
native: $(BUILD)/regula
	@tests/native.sh $(BUILD)/regula
# Every `$ regula` example of README.md and docs/ prints what the
# documentation shows (tests/docs.py), and docs/pictures/ is what the rule
# files draw now (tools/pictures.sh --check).
docs: $(BUILD)/regula
	@python3 tests/docs.py $(BUILD)/regula
	@tools/pictures.sh $(BUILD)/regula --check

# docs/manual.md and --help name the same commands and options, the
# language reference's keywords are the lexer's, every promise has a test
# row (tests/promises.md), every link resolves (tests/manual.py).
manual: $(BUILD)/regula
	@python3 tests/manual.py $(BUILD)/regula

# The editor files (editors/) know exactly the lexer's keywords.
editors:
	@tests/editors.sh

# The README's Neovim setup, headless in Debian's Neovim (installed when
# missing, skipped with a message when it cannot be): part of `make test`.
nvim: $(BUILD)/regula
	@tests/nvim.sh $(BUILD)/regula

# The lexer's token names agree with parser.y's %token list.
tokens:
	@tests/tokens.sh

# docs/language.md documents every builtin of interp/compile/builtins.h.
builtins:
	@tests/builtins.sh

# The whole suite: the quick tests (fault injection only under the
# sanitizers, where it also finds leaks), the editor, every secret moment,
# the native tier, the tests that run the library again under
# AddressSanitizer and UBSan, each command once under valgrind (reads of
# uninitialised memory), the page in a real browser; then install (alone:
# it checks that nothing in the source tree changed).  The parts run two at
# a time, longest first (`make -jN test`: N at a time); each part's output
# is printed whole when it ends.
TEST_PARTS := sanitize test-web-if-able native secrecy test-plain valgrind-quick nvim
test: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j2) --output-sync=target all
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j2) --output-sync=target \
	  $(TEST_PARTS)
	@tests/install.sh

test-plain: all $(TEST_RUNS) $(TEST_CHECKS)

valgrind-quick: all
	@tests/valgrind.sh --quick $(BUILD)/regula

# The page's tests need emscripten, chromium and npm, installed when
# missing; on a machine that cannot install them (no Debian or npm
# registry), `make test` says it skipped them instead of failing.  Once they
# are installed, a failing page test fails `make test`.
test-web-if-able: all
	@if web/deps.sh test && web/deps.sh build $(WEB_DEPS); then \
	  $(MAKE) --no-print-directory test-web; \
	else \
	  echo "regula: SKIPPED make test-web: emscripten, chromium or npm could not be installed here" >&2; \
	fi

# The tests that run the library, under AddressSanitizer and UBSan.
sanitize: deps
	@$(MAKE) --no-print-directory BUILD=build/asan CFLAGS="$(SANFLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" all $(TEST_RUNS) faults-1 faults-2

# ---- hardening: fuzzing, fault injection, valgrind -----------------------
# Each harness tools/fuzz/fuzz_NAME.c is built with libFuzzer by `make fuzz`
# and, with tools/fuzz/replay.c as its main, by `make test`, which replays
# the inputs that once crashed it (tests/fuzz/NAME/).
FUZZ_NAMES := parse compile module tsv answers render fmt diag setup lsp native
# the language server's frame reader lives in tools/ (not the library)
FUZZ_EXTRA_lsp := tools/lsp_frame.c
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
              -fno-omit-frame-pointer
FUZZ_COMMON := tools/fuzz/fuzz.c $(wildcard tools/fuzz/*.h)

$(BUILD)/fuzz-replay/fuzz_%: tools/fuzz/fuzz_%.c tools/fuzz/replay.c $(FUZZ_COMMON) \
                             $(wildcard tools/*.h) $(BUILD)/libregula.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itools -Itools/fuzz $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< \
	  tools/fuzz/fuzz.c tools/fuzz/replay.c $(FUZZ_EXTRA_$*) $(BUILD)/libregula.a $(LDLIBS)

$(BUILD)/fuzz-replay/fuzz_lsp build/fuzz/bin/fuzz_lsp: tools/lsp_frame.c

# Replays tests/fuzz/NAME/ through each harness (quick; part of `make test`).
replay: $(patsubst %,$(BUILD)/fuzz-replay/fuzz_%,$(FUZZ_NAMES))
	@for n in $(FUZZ_NAMES); do \
	  $(BUILD)/fuzz-replay/fuzz_$$n $$(ls -d tests/fuzz/$$n 2>/dev/null) >/dev/null || exit 1; \
	done; echo "replay: tests/fuzz/ replayed through $(words $(FUZZ_NAMES)) harnesses"

# RG_ALLOC_FAIL_AT=1, 2, ... through whole commands (part of `make test`).
faults: $(BUILD)/regula
	@tests/faults.sh $(BUILD)/regula

# The same in two halves, side by side (each command's cases run in turn).
faults-1 faults-2: $(BUILD)/regula
	@FAULTS_PART=$(subst faults-,,$@)/2 tests/faults.sh $(BUILD)/regula

build/fuzz/bin/fuzz_%: tools/fuzz/fuzz_%.c $(FUZZ_COMMON) $(wildcard tools/*.h) \
                       build/fuzz/libregula.a
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -Itools -Itools/fuzz $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< \
	  tools/fuzz/fuzz.c $(FUZZ_EXTRA_$*) build/fuzz/libregula.a $(LDLIBS)

fuzz-build: all
	@tools/fuzz/deps.sh
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang \
	  CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" build/fuzz/libregula.a
	@$(MAKE) --no-print-directory $(patsubst %,build/fuzz/bin/fuzz_%,$(FUZZ_NAMES))

# `make fuzz FUZZ_SECONDS=N`: every harness for N seconds (default 60).
fuzz: fuzz-build
	@tools/fuzz/run.sh $(BUILD)/regula build/fuzz $(FUZZ_SECONDS) $(FUZZ_NAMES)

# The golden tests with every run of regula under valgrind's memcheck
# (`make test` runs each command once: tests/valgrind.sh --quick).
valgrind: all
	@tests/valgrind.sh $(BUILD)/regula

# ---- the page (web/) ----------------------------------------------------------
# `make web` compiles the library and web/glue.c (what the page calls) with
# Debian's emscripten into one static site, $(BUILD)/web: index.html, app.js, style.css, regula.js,
# regula.wasm and regula.data (rules/ and tables/, preloaded into the
# page's in-memory file system).  utf8proc and jansson are compiled from
# Debian's sources of the versions the native build links (web/deps.sh
# fetches them; jansson is Debian's code, compiled with its warnings off).  One emcc
# invocation, -O2; the VM runs its switch dispatch (a wasm br_table).  The
# same regula.js serves the page and its Web Worker (web/worker.js).
WEB      := $(BUILD)/web
WEB_DEPS := $(BUILD)/web-deps
WEB_PAGE := $(patsubst web/%,$(WEB)/%,$(wildcard web/*.html web/*.js web/*.css))
WEB_DATA := $(shell find rules tables -type f)
# Emscripten's optimizer needs Debian's acorn, which another node may not see.
EMCC     := NODE_PATH=/usr/share/nodejs emcc
EMFLAGS  := -O2 -sENVIRONMENT=web,worker -sMODULARIZE -sEXPORT_NAME=createRegula \
            -sALLOW_MEMORY_GROWTH -sEXPORTED_FUNCTIONS=_rgw_check,_rgw_sheet,_rgw_query,_rgw_test,_rgw_diff,_rgw_info,_rgw_inputs,_rgw_run,_rgw_play,_rgw_reply,_rgw_sims_new,_rgw_sims_run,_rgw_sims_json,_rgw_sims_free,_rgw_free \
            -sEXPORTED_RUNTIME_METHODS=ccall,FS,UTF8ToString \
            --preload-file rules@/rules --preload-file tables@/tables
# Lemon's template has unused variables (as for parser.o above).
WEB_CPP  := $(CPPFLAGS) -I$(WEB_DEPS)/utf8proc -I$(WEB_DEPS)/jansson -DUTF8PROC_STATIC -DRG_VM_SWITCH
WEB_WARN := $(WARN) -Wno-unused-variable -Wno-unused-but-set-variable

web: $(WEB)/regula.js $(WEB_PAGE)

$(WEB)/regula.js: $(LIB_SRC) $(GEN_SRC) web/glue.c $(LIB_HDR) \
                  $(WEB_DATA) web/deps.sh | deps
	@web/deps.sh build $(WEB_DEPS)
	@mkdir -p $(@D) $(WEB_DEPS)/jansson-obj
	for f in $(WEB_DEPS)/jansson/*.c; do \
	  $(EMCC) -O2 -w -DHAVE_STDINT_H -I$(WEB_DEPS)/jansson -c -o \
	    $(WEB_DEPS)/jansson-obj/$$(basename $$f .c).o $$f || exit 1; \
	done
	$(EMCC) $(WEB_CPP) $(WEB_WARN) $(EMFLAGS) -o $@ $(LIB_SRC) $(GEN_SRC) web/glue.c \
	  $(WEB_DEPS)/utf8proc/utf8proc.c $(WEB_DEPS)/jansson-obj/*.o

$(WEB)/%: web/%
	@mkdir -p $(@D)
	cp $< $@

# Serves the page on 127.0.0.1, on a free port (the URL is printed).
serve: web
	@echo "regula: serving $(WEB) (Ctrl-C stops)"
	@python3 -u -m http.server 0 --bind 127.0.0.1 --directory $(WEB)

# The page in headless Chromium (web/test/page.mjs): runs, games clicked
# through, the playground's texts and the worker's simulation equal the
# CLI's; screenshots at phone and desktop width go to build/web-shots/.
test-web: all web
	@web/deps.sh test
	@node web/test/page.mjs $(BUILD)/regula $(WEB) build/web-shots
	@SECRECY_EVERY=6 node web/test/secrecy.mjs $(BUILD)/regula $(WEB)

# A secret stays secret on the page (web/test/secrecy.mjs) at every secret
# moment of every bundled rule file with secrets (test-web samples them).
secrecy-web: all web
	@web/deps.sh test
	@node web/test/secrecy.mjs $(BUILD)/regula $(WEB)

# ---- pictures -------------------------------------------------------------
# Renders the pictures of README.md and docs/ into docs/pictures/ (committed
# PNGs, drawn from the rule files; `make docs` checks they are up to date).
pictures: all
	@tools/pictures.sh $(BUILD)/regula

# ---- installing ------------------------------------------------------------
# `make install PREFIX=DIR DESTDIR=STAGE`: the program, its manual page (made
# from its --help texts by tools/man.sh), the library (lib/libregula.so.X.Y.Z
# and its links, include/regula.h and regula_front.h, lib/pkgconfig/regula.pc),
# bash completion, the editor files and the bundled rule files with their
# tables (share/regula/).
PREFIX  ?= /usr/local
DESTDIR ?=

$(BUILD)/regula.1: $(BUILD)/regula tools/man.sh
	tools/man.sh $(BUILD)/regula >$@.tmp && mv $@.tmp $@

# tools/install.sh does the work, with every path quoted (a space in DESTDIR
# or PREFIX is fine): it lists what it created in share/regula/MANIFEST, and
# uninstall removes exactly that (the files it lists, folders left empty).
install uninstall: export override DESTDIR := $(value DESTDIR)
install uninstall: export override PREFIX := $(value PREFIX)
install uninstall: export BUILD := $(BUILD)
install uninstall: export SO_VERSION := $(SO_VERSION)
install: all $(BUILD)/regula.1
	@tools/install.sh install

uninstall:
	@tools/install.sh uninstall

clean:
	rm -rf build

# ---- measuring the tests (not part of test) --------------------------------
# `make coverage`: the library's tests of `make test` (test-quick, secrecy and
# the native tier; not the sanitizer, valgrind and page runs of the same tests)
# on a build with --coverage (build/cov), then lines and branches per file
# (tools/coverage.sh, gcovr).
coverage: deps
	@rm -rf build/cov && mkdir -p build
	@$(MAKE) --no-print-directory BUILD=build/cov CFLAGS="-O0 -g --coverage -fprofile-update=atomic" \
	  LDFLAGS=--coverage test-quick secrecy native >build/cov.log 2>&1 \
	  || { echo "regula: make test-quick secrecy native failed under coverage (build/cov.log)"; exit 1; }
	@tools/coverage.sh build/cov

# `make mutate`: each mutant of tests/mutants.txt applied to the library in
# turn, built and run against the quick tests; the survivors are listed.
mutate: deps
	@python3 tools/mutate.py tests/mutants.txt

# ---- benchmarks (not part of test) -------------------------------------------
# regula against C, Lua 5.4 and LuaJIT on tools/bench/*.rules; see tools/bench/run.sh.
bench: all
	@tools/bench/run.sh $(BUILD)/regula
