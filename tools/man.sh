#!/bin/sh
# tools/man.sh BINARY: writes the manual page regula(1) to stdout, made from
# the program's own help texts (`regula --help` and `regula COMMAND --help`
# for every command it lists), so that the page and --help are one source.
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: tools/man.sh BINARY" >&2
  exit 2
fi
bin=$1
set -e
version=$("$bin" --version | sed 's/^regula //')
help=$("$bin" --help)
cmds=$(printf '%s\n' "$help" | sed -n 's/^  regula \([a-z]*\).*/\1/p')

# roff: escape backslashes, and a leading dot or quote on a line
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

cat <<EOT
.TH REGULA 1 "" "regula $version" "User Commands"
.SH NAME
regula \\- run wargame quick reference sheets transcribed as rule files
.SH SYNOPSIS
.nf
EOT
printf '%s\n' "$help" | sed -n 's/^  \(regula .*\)/\1/p' | esc
cat <<EOT
.fi
.SH DESCRIPTION
EOT
# the paragraphs of --help after the usage line, minus the command list
printf '%s\n' "$help" | sed -e '1d' -e '/^Commands:/,/^$/d' -e '/^Exit codes:/,$d' -e '/^  regula /d' | esc |
  sed 's/^$/.PP/'
echo ".SH COMMANDS"
for c in $cmds; do
  echo ".SS $c"
  echo ".nf"
  "$bin" "$c" --help | esc
  echo ".fi"
done
cat <<EOT
.SH FILES
.TP
.I *.rules
rule files: a sheet transcribed in the regula language
.TP
.I *.rbc
compiled modules (regula build), verified again when loaded
.SH EXIT STATUS
EOT
# the list of --help (tools/exitcode.h), one paragraph a code
printf '%s\n' "$help" | sed -n '/^Exit codes:/,/^$/s/^  \([0-9]\)  /\1 /p' | esc |
  while read -r code meaning; do printf '.TP\n.B %s\n%s\n' "$code" "$meaning"; done
cat <<EOT
.SH SEE ALSO
In the regula sources: docs/manual.md (the manual: every command with
its options and examples, playing at the table, promises and limits),
docs/language.md (the rule language) and HACKING.md (for contributors).
EOT
