" Vim syntax file
" Language: regula rule files (*.rules)
" The keyword lists below are checked against grammar/lexer.re by
" tests/editors.sh: a keyword added to the lexer must be added here.
if exists('b:current_syntax') | finish | endif

" keywords: declarations
syn keyword regulaDecl ruleset revision source extends unit scale enum record const table from procedure test input dice deck strategy display default
" keywords: statements
syn keyword regulaStmt let if else for in while return note expect step rule roll draw choose
" keywords: variants and provenance
syn keyword regulaVariant override remove extend assumed
" keywords: operators
syn keyword regulaOperator and or not mod with
" keywords: types
syn keyword regulaType set int bool percent text distance list
" keywords: constants
syn keyword regulaBoolean true false

syn match regulaComment "#.*$" contains=regulaTodo,@Spell
syn keyword regulaTodo contained TODO FIXME XXX ASSUMED
syn region regulaString start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline contains=regulaEscape
syn match regulaEscape contained +\\.+
syn match regulaDice "\<\d*[dD]\d\+\>"
syn match regulaNumber "\<\d\+\(\.\d\+\)\?\(%\|[A-Za-z_]\+\*\?\|\"\*\?\)\?"
syn match regulaOperatorSym "->\|\.\.\|==\|!=\|<=\|>=\|[<>=+\-*/]"

hi def link regulaDecl Structure
hi def link regulaStmt Statement
hi def link regulaVariant PreProc
hi def link regulaOperator Operator
hi def link regulaOperatorSym Operator
hi def link regulaType Type
hi def link regulaBoolean Boolean
hi def link regulaComment Comment
hi def link regulaTodo Todo
hi def link regulaString String
hi def link regulaEscape SpecialChar
hi def link regulaDice Special
hi def link regulaNumber Number

let b:current_syntax = 'regula'
