/*
** builtins.h: the builtin functions of the rule language, in one list.
**
** RG_BUILTINS(X) calls X(name, kind, argc, args) once per builtin:
**
**   kind   MATH   numbers and members (min, max, clamp, abs, count, ord,
**                 wrap): checked and compiled by compile.c's builtin()
**          LIST   lists, dice, decks and choices: compile.c's builtin2()
**          SHAPE  the statements that draw pictures (see svg.h)
**   argc   how many arguments it takes; 0: it says itself (min and max take
**          two or more, choose a range or a list)
**   args   SHAPE: one letter per argument, n a number (int, percent or
**          distance, in the sheet's units), s a style text, v any value
**          shown as text, L a list of numbers (x1, y1, x2, y2, ...); "" for
**          the others
**
** The list expands into the names a procedure may not take (compile.c),
** the argument counts the compiler checks (compile.c), the shapes' argument
** kinds (compile.c) and value counts (svg.c), and tests/builtins.sh checks
** that docs/language.md documents each one.
*/
#ifndef RG_BUILTINS_H
#define RG_BUILTINS_H

#define RG_BUILTINS(X) \
  X(min, MATH, 0, "") X(max, MATH, 0, "") X(clamp, MATH, 3, "") X(abs, MATH, 1, "") \
  X(count, MATH, 1, "") X(ord, MATH, 1, "") X(wrap, MATH, 3, "") \
  X(len, LIST, 1, "") X(append, LIST, 2, "") X(without, LIST, 2, "") X(sorted, LIST, 1, "") \
  X(best, LIST, 2, "") X(sum, LIST, 1, "") X(at_least, LIST, 2, "") X(members, LIST, 1, "") \
  X(rolls, LIST, 2, "") X(draws, LIST, 2, "") X(left, LIST, 1, "") X(nth, LIST, 2, "") \
  X(choose, LIST, 0, "") \
  X(canvas, SHAPE, 4, "vnnv") X(rect, SHAPE, 6, "nnnnsv") X(line, SHAPE, 5, "nnnns") \
  X(circle, SHAPE, 5, "nnnsv") X(polygon, SHAPE, 3, "Lsv") X(label, SHAPE, 4, "nnvs")

/* Keeping one kind of builtin in an expansion: RG_BUILTIN_IF_LIST_##kind(E)
** is E when kind is LIST and nothing otherwise (likewise for MATH, SHAPE):
**     #define RG_X(n, kind, argc, args) RG_BUILTIN_IF_LIST_##kind({ #n, argc },)
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
