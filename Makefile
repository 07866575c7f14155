# regula: build, test, sanitize.  `make run` and `make test` are all a user needs.
#
# Generated C (re2c, Lemon) goes to build/gen and is never committed.
# Missing tools are installed from Debian's packages (see `deps`).

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -Iinterp -I$(BUILD)/gen
LDLIBS  := -lutf8proc -lm
BUILD   ?= build
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

LIB_SRC := $(wildcard interp/*.c)
GEN_SRC := $(BUILD)/gen/lexer.c $(BUILD)/gen/parser.c
LIB_OBJ := $(patsubst interp/%.c,$(BUILD)/obj/%.o,$(LIB_SRC)) \
           $(BUILD)/obj/lexer.o $(BUILD)/obj/parser.o
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRC))

.PHONY: all deps run test test-quick sanitize unit golden ruletests clean
.SECONDARY:

all: deps $(BUILD)/regula

# ---- dependencies -----------------------------------------------------
# Installs re2c, lemon and libutf8proc-dev from Debian when missing.
deps:
	@tools/deps.sh

# ---- generated front end ----------------------------------------------
$(BUILD)/gen/lexer.c: grammar/lexer.re $(BUILD)/gen/parser.h
	@mkdir -p $(@D)
	re2c -W -Werror --no-generation-date --no-version -8 -i -I /usr/share/re2c/stdlib -o $@ $<

$(BUILD)/gen/parser.c $(BUILD)/gen/parser.h: grammar/parser.y
	@mkdir -p $(BUILD)/gen
	cp grammar/parser.y $(BUILD)/gen/parser.y
	lemon -q -T/usr/share/lemon/lempar.c -d$(BUILD)/gen $(BUILD)/gen/parser.y \
	  || { rm -f $(BUILD)/gen/parser.c $(BUILD)/gen/parser.h; exit 1; }

# ---- library and CLI --------------------------------------------------
$(BUILD)/obj/%.o: interp/%.c $(wildcard interp/*.h) $(BUILD)/gen/parser.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/lexer.o: $(BUILD)/gen/lexer.c $(wildcard interp/*.h)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

# Lemon's template has unused variables; only its own file is excused.
$(BUILD)/obj/parser.o: $(BUILD)/gen/parser.c $(wildcard interp/*.h)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) -Wno-unused-variable -Wno-unused-but-set-variable $(CFLAGS) -c -o $@ $<

$(BUILD)/libregula.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/regula: tools/regula.c $(BUILD)/libregula.a
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $< $(BUILD)/libregula.a $(LDLIBS)

$(BUILD)/unit/%: tests/unit/%.c $(BUILD)/libregula.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $< $(BUILD)/libregula.a $(LDLIBS)

# ---- running ------------------------------------------------------------
run: all
	@tools/run-demo.sh $(BUILD)/regula

# ---- tests ---------------------------------------------------------------
unit: $(UNIT_BIN)
	@tools/run-unit.sh $(UNIT_BIN)

golden: $(BUILD)/regula
	@tests/run.sh $(BUILD)/regula

test-quick: all unit golden

# The whole suite, then again under AddressSanitizer and UBSan.
test: deps
	@$(MAKE) --no-print-directory test-quick
	@$(MAKE) --no-print-directory sanitize

sanitize: deps
	@$(MAKE) --no-print-directory BUILD=build/asan CFLAGS="$(SANFLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" test-quick

clean:
	rm -rf build
