/*
** builtins.h: the builtin functions of the rule language, in one list.
**
** RG_BUILTINS(X) calls X(name, kind, argc, args, op, handler) once per
** builtin:
**
**   kind     MATH   numbers and members (min, max, clamp, abs, count, ord, wrap)
**            LIST   lists, dice, decks and choices
**            SHAPE  the statements that draw pictures (see svg.h)
**   argc     how many arguments it takes; 0: it says itself (min and max take
**            two or more, choose a range or a list)
**   args     SHAPE: one letter per argument, n a number (int, percent or
**            distance, in the sheet's units), s a style text, v any value
**            shown as text, L a list of numbers (x1, y1, x2, y2, ...); "" for
**            the others
**   op       the instruction a call compiles to (RG_OP_op of opcodes.h; NOP
**            for those that have none of their own: ord, wrap)
**   handler  the compiler's function that checks and compiles a call
**            (compile_call.c: bi_HANDLER), shared by builtins alike
**
** The list expands into the compiler's table of builtins (compile_call.c),
** the names a procedure may not take (compile_decl.c), the shapes' value
** counts (svg.c), and tests/builtins.sh checks that docs/language.md
** documents each one.
*/
#ifndef RG_BUILTINS_H
#define RG_BUILTINS_H

#define RG_BUILTINS(X) \
  X(min, MATH, 0, "", MIN, minmax) X(max, MATH, 0, "", MAX, minmax) \
  X(clamp, MATH, 3, "", CLAMP, minmax) X(abs, MATH, 1, "", ABS, abs) \
  X(count, MATH, 1, "", COUNT, count) X(ord, MATH, 1, "", NOP, ord) \
  X(wrap, MATH, 3, "", NOP, wrap) \
  X(len, LIST, 1, "", LEN, len) X(append, LIST, 2, "", APPEND, append) \
  X(without, LIST, 2, "", REMOVE, list_count) X(sorted, LIST, 1, "", SORT, sorted_sum) \
  X(best, LIST, 2, "", BEST, list_count) X(sum, LIST, 1, "", SUM, sorted_sum) \
  X(at_least, LIST, 2, "", ATLEAST, at_least) X(members, LIST, 1, "", SETLIST, members) \
  X(rolls, LIST, 2, "", ROLLS, rolls) X(draws, LIST, 2, "", DRAWS, draws) \
  X(left, LIST, 1, "", LEFT, left) X(nth, LIST, 2, "", NTH, nth) \
  X(choose, LIST, 0, "", CHOOSE, choose) \
  X(canvas, SHAPE, 4, "vnnv", SHAPE, shape) X(rect, SHAPE, 6, "nnnnsv", SHAPE, shape) \
  X(line, SHAPE, 5, "nnnns", SHAPE, shape) X(circle, SHAPE, 5, "nnnsv", SHAPE, shape) \
  X(polygon, SHAPE, 3, "Lsv", SHAPE, shape) X(label, SHAPE, 4, "nnvs", SHAPE, shape)

/* Keeping one kind of builtin in an expansion: RG_BUILTIN_IF_LIST_##kind(E)
** is E when kind is LIST and nothing otherwise (likewise for MATH, SHAPE):
**     #define RG_X(n, kind, argc, args, op, fn) RG_BUILTIN_IF_LIST_##kind({ #n, argc },)
*/
#define RG_BUILTIN_IF_MATH_MATH(...) __VA_ARGS__
#define RG_BUILTIN_IF_MATH_LIST(...)
#define RG_BUILTIN_IF_MATH_SHAPE(...)
#define RG_BUILTIN_IF_LIST_MATH(...)
#define RG_BUILTIN_IF_LIST_LIST(...) __VA_ARGS__
#define RG_BUILTIN_IF_LIST_SHAPE(...)
#define RG_BUILTIN_IF_SHAPE_MATH(...)
#define RG_BUILTIN_IF_SHAPE_LIST(...)
#define RG_BUILTIN_IF_SHAPE_SHAPE(...) __VA_ARGS__

#endif
