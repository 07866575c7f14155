#!/bin/sh
# tests/fmt.sh BINARY: `regula fmt` as a command (the layout itself, its
# idempotence and the unchanged modules are tests/unit/test_fmt.c's):
# --check lists what would change and exits 1 without writing; a write
# replaces the file keeping its mode (through a symbolic link, its target,
# the link staying a link); syntax errors exit 2 with a located
# error and leave the file alone; a file that cannot be read exits 2, as
# for check; `-` is standard input.
bin=$1
test_name=fmt
. "$(dirname "$0")/counts.sh"

printf 'enum  c {A<B}\nconst x=-1   # one\n' > "$tmp/a.rules"
printf 'enum c { A < B }\nconst x = -1  # one\n' > "$tmp/want"
printf 'const = 1\n' > "$tmp/bad.rules"
cp "$tmp/want" "$tmp/good.rules"
chmod 0640 "$tmp/a.rules"

out=$("$bin" fmt --check "$tmp/a.rules" "$tmp/good.rules"); rc=$?
[ $rc = 1 ] && [ "$out" = "$tmp/a.rules" ] && ok || bad "--check: exit $rc, listed '$out'"
cmp -s "$tmp/a.rules" "$tmp/want" && bad "--check wrote the file" || ok

"$bin" fmt "$tmp/a.rules" "$tmp/good.rules" && ok || bad "fmt: exit $?"
cmp -s "$tmp/a.rules" "$tmp/want" && ok || bad "fmt: $(diff "$tmp/a.rules" "$tmp/want")"
[ "$(stat -c %a "$tmp/a.rules")" = 640 ] && ok || bad "fmt: mode $(stat -c %a "$tmp/a.rules"), not 640"
[ -z "$(ls "$tmp" | grep -v -e '^a.rules$' -e '^want$' -e '^bad.rules$' -e '^good.rules$')" ] && ok ||
  bad "fmt left files: $(ls "$tmp")"

# through a symbolic link (a relative one, to a link): the target is
# rewritten, keeping its mode, and the links stay links
mkdir "$tmp/real" "$tmp/links"
printf 'const  z=3\n' >"$tmp/real/s.rules"
chmod 0604 "$tmp/real/s.rules"
ln -s ../real/s.rules "$tmp/links/one"
ln -s one "$tmp/links/two.rules"
"$bin" fmt "$tmp/links/two.rules" && ok || bad "fmt through a link: exit $?"
[ "$(cat "$tmp/real/s.rules")" = "const z = 3" ] && ok || bad "fmt through a link: target holds '$(cat "$tmp/real/s.rules")'"
[ -L "$tmp/links/one" ] && [ -L "$tmp/links/two.rules" ] && ok || bad "fmt replaced a link by a file"
[ "$(stat -c %a "$tmp/real/s.rules")" = 604 ] && ok || bad "fmt through a link: mode $(stat -c %a "$tmp/real/s.rules"), not 604"
[ "$(ls "$tmp/real" "$tmp/links" | tr '\n' ' ')" = "$tmp/links: one two.rules  $tmp/real: s.rules " ] && ok ||
  bad "fmt through a link left: $(ls "$tmp/real" "$tmp/links")"
rm -r "$tmp/real" "$tmp/links"

out=$("$bin" fmt --check "$tmp/a.rules"); rc=$?
[ $rc = 0 ] && [ -z "$out" ] && ok || bad "--check of a formatted file: exit $rc, '$out'"

err=$("$bin" fmt "$tmp/bad.rules" 2>&1); rc=$?
[ $rc = 2 ] && ok || bad "syntax error: exit $rc"
case $err in "$tmp/bad.rules:1:7: error: "*) ok ;; *) bad "syntax error: '$err'" ;; esac
[ "$(cat "$tmp/bad.rules")" = "const = 1" ] && ok || bad "a file with errors was changed"

printf 'const  y=2\n' | "$bin" fmt - > "$tmp/out" && [ "$(cat "$tmp/out")" = "const y = 2" ] && ok ||
  bad "fmt -: '$(cat "$tmp/out")'"
out=$(printf 'const  y=2\n' | "$bin" fmt --check -); rc=$?
[ $rc = 1 ] && [ "$out" = "-" ] && ok || bad "fmt --check -: exit $rc, '$out'"
"$bin" fmt > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok || bad "fmt without a file: exit $rc"
# a file that cannot be read is bad input (2), as for check, whether it is
# missing or a folder; fmt --help says so
for f in "$tmp/nonexistent.rules" "$tmp"; do
  "$bin" check "$f" > /dev/null 2>&1; crc=$?
  "$bin" fmt "$f" > /dev/null 2>&1; rc=$?
  [ $rc = 2 ] && [ $crc = 2 ] && ok || bad "fmt $f: exit $rc (check: $crc)"
done
"$bin" fmt --help | tr '\n' ' ' | grep -q "2 a file has syntax errors (reported as by check) or cannot be read," &&
  ok || bad "fmt --help: 2 is not said to be a file that cannot be read"

finish
