#!/usr/bin/env perl
# Writes the single-file build of the library (`make amalgamate`):
#
#   tools/amalgamate.pl -o dist/utfx.c [--flags 'GLOB=FLAGS']... SOURCES...
#
# SOURCES are the library's .c files (sources.mk), in order. Each is copied
# once, with the local headers it includes inlined at their first inclusion
# (by path: later inclusions are dropped, except of a header without an
# include guard, which is made to be included again), so the result compiles as one
# translation unit that includes only "utfx.h" and system headers.
#
# --flags gives the per-file flags of the Makefile build to files matching
# GLOB; the generator turns them into what does the same inside one file:
#   -mFEATURE     a target region: `#pragma GCC target` (gcc) or `#pragma clang
#                 attribute push(target(...))` (clang) around the file's code,
#                 so its functions keep their ISA and dispatch still chooses at
#                 run time; `#ifndef __FEATURE__ / #error / #endif` guards in
#                 the region are dropped (clang's pragma does not define the
#                 feature macros; the pragma is what the guard asks for);
#                 gcc's region also has optimize("no-ipa-ra"): with IPA register
#                 allocation gcc 12 leaves out the vzeroupper before a call to
#                 (and so the return after) a function of the same file it
#                 knows, and in one file every AVX kernel calls scalar code it
#                 knows (tests/test_amalgamation.sh checks);
#   -Wno-WARNING  `#pragma GCC diagnostic ignored` over the file.
# --instance GLOB names template headers (the generic kernels and each ISA's
# vector vocabulary): one is included by several sources of one condition,
# each time over another vocabulary, so it is inlined into every source that
# includes it, as part of that source: its file-scope names are renamed with
# the source's (below), it takes the source's region, and its macros (its
# include guard too) are #undef'd at the source's end. A header that includes
# a template header is one too.
# --if puts the sources matching GLOB (and what they include) inside
# `#if CONDITION` (e.g. the x86 files: only on x86-64), and with them the
# system headers hoisted from them.
# A header takes the region of its includers when they all share one, and is
# baseline code otherwise (declarations, and helpers every tier calls: code of
# a lower tier may be called from a higher one, never the reverse). Unused
# static functions of a header are not warned of (clang would: in one file
# they are no longer in a header).
#
# One translation unit also merges what separate files kept apart; the
# generator resolves it mechanically: file-scope names (statics, tags,
# enumerators, typedefs) that two .c files (or a .c file and a header) both
# define are renamed FILESTEM_NAME in the .c file, and
# every macro a .c file defines is #undef'd at its end. System includes at
# file level are hoisted to the top, before any target region (so intrinsic
# headers are read in baseline mode, as each of their functions expects), and
# the code after them is compiled with hidden visibility, as the library is
# (only the UTFX_API functions of utfx.h stay visible).
use strict;
use warnings;
use File::Basename qw(dirname basename);
use File::Spec;

my ($out, @rules, @conds, @sources, @instance_res);
while (@ARGV) {
  my $arg = shift @ARGV;
  if ($arg eq '-o') { $out = shift @ARGV; }
  elsif ($arg eq '--flags') {
    my ($glob, $flags) = split /=/, shift(@ARGV), 2;
    push @rules, { re => glob_re($glob), flags => [split ' ', $flags] };
  } elsif ($arg eq '--if') {
    my ($glob, $cond) = split /=/, shift(@ARGV), 2;
    push @conds, { re => glob_re($glob), cond => $cond };
  } elsif ($arg eq '--instance') {
    push @instance_res, glob_re(shift @ARGV);
  } elsif ($arg =~ /^-/) { die "amalgamate: unknown option $arg\n"; }
  else { push @sources, $arg; }
}
die "usage: amalgamate.pl -o OUT [--flags 'GLOB=FLAGS']... [--if 'GLOB=CONDITION']... SOURCES...\n" unless $out && @sources;

sub glob_re {
  my ($g) = @_;
  my $re = join '', map { $_ eq '*' ? '[^/]*' : $_ eq '?' ? '[^/]' : quotemeta } split /([*?])/, $g;
  return qr/^$re$/;
}

sub norm {    # a path relative to the current directory, without . and ..
  my @out;
  for my $p (split m{/}, $_[0]) {
    next if $p eq '.' || $p eq '';
    if ($p eq '..' && @out && $out[-1] ne '..') { pop @out; } else { push @out, $p; }
  }
  return join '/', @out;
}

sub slurp {
  my ($path) = @_;
  open my $fh, '<', $path or die "amalgamate: $path: $!\n";
  local $/;
  my $text = <$fh>;
  return $text;
}

# ---- read every file reachable from the sources
my (%text, %includes, %is_source);
my @todo = map { norm($_) } @sources;
$is_source{$_} = 1 for @todo;
while (defined(my $f = shift @todo)) {
  next if exists $text{$f};
  $text{$f} = slurp($f);
  $includes{$f} = [];
  while ($text{$f} =~ /^[ \t]*#[ \t]*include[ \t]*"([^"]+)"/mg) {
    my $h = norm(dirname($f) . "/$1");
    next unless -f $h;    # not a local file (utfx.h comes from -Iinclude): kept as is
    push @{ $includes{$f} }, $h;
    push @todo, $h;
  }
}

# ---- template headers (--instance), and the ones each source reaches
my %is_instance;
for my $f (keys %text) {
  next if $is_source{$f};
  $is_instance{$f} = 1 if grep { $f =~ $_ } @instance_res;
}
for (my $more = 1; $more;) {
  $more = 0;
  for my $f (keys %text) {
    next if $is_source{$f} || $is_instance{$f};
    if (grep { $is_instance{$_} } @{ $includes{$f} }) { $is_instance{$f} = 1; $more = 1; }
  }
}
my %reaches;    # source -> [template headers it includes, directly or through templates]
for my $f (keys %text) {
  next unless $is_source{$f};
  my (%seen, @q);
  @q = grep { $is_instance{$_} } @{ $includes{$f} };
  while (defined(my $h = shift @q)) {
    next if $seen{$h}++;
    push @q, grep { $is_instance{$_} } @{ $includes{$h} };
  }
  $reaches{$f} = [sort keys %seen];
}

# ---- flags and regions
sub flags_of {
  my ($f) = @_;
  for my $r (@rules) { return @{ $r->{flags} } if $f =~ $r->{re}; }
  return ();
}
my %region;    # file -> target string ('' = baseline)
for my $f (keys %text) {
  next unless $is_source{$f};
  $region{$f} = join ',', map { /^-m(.+)$/ ? $1 : () } flags_of($f);
}
# A header's region: the one region all its (transitive) includers share,
# per source condition (a header of x86 and AArch64 files is inlined once
# under each condition, and takes each side's region there).
my (%sets, %hregion);    # header -> condition -> region -> 1; header -> condition -> region
my $changed = 1;
while ($changed) {
  $changed = 0;
  for my $f (keys %text) {
    my @from;
    if ($is_source{$f}) { @from = ([cond_of($f), $region{$f}]); }
    else {
      for my $c (keys %{ $sets{$f} || {} }) { push @from, [$c, $_] for keys %{ $sets{$f}{$c} }; }
    }
    for my $h (@{ $includes{$f} }) {
      next if $is_source{$h};
      for my $cr (@from) { $changed = 1 unless $sets{$h}{ $cr->[0] }{ $cr->[1] }++; }
    }
  }
}
for my $h (keys %text) {
  next if $is_source{$h};
  for my $c (keys %{ $sets{$h} || {} }) {
    my @r = keys %{ $sets{$h}{$c} };
    $hregion{$h}{$c} = @r == 1 ? $r[0] : '';
  }
}
sub region_of {
  my ($f, $c) = @_;
  return $is_source{$f} ? $region{$f} : ($hregion{$f}{$c} // '');
}

# ---- static names that would clash in one translation unit
# Code with comments, strings and preprocessor lines blanked out.
sub code_only {
  my ($t) = @_;
  $t =~ s{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'}{ }gs;
  $t =~ s/^[ \t]*#(?:[^\n]*\\\n)*[^\n]*//mg;
  return $t;
}
# Macros whose expansion starts with `static` (UTFXI_INLINE) count as `static`,
# and so do macros that expand to such a macro (an alias of it).
my %static_macro;
for my $f (keys %text) {
  $static_macro{$1} = 1 while $text{$f} =~ /^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+static\b/mg;
}
for my $f (keys %text) {
  while ($text{$f} =~ /^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(\w+)[ \t]*$/mg) {
    $static_macro{$1} = 1 if $static_macro{$2};
  }
}
# Names a file declares at file scope that stay inside its translation unit:
# static functions and objects, enum, struct and union tags, enumerators,
# typedefs.
sub file_names {
  my ($t) = @_;
  my @tok = code_only($t) =~ /(\w+|[{}()\[\];=,])/g;
  my ($depth, @names) = (0);
  for (my $i = 0; $i < @tok; $i++) {
    my $k = $tok[$i];
    if ($k eq '{') { $depth++; next; }
    if ($k eq '}') { $depth--; next; }
    next unless $depth == 0;
    if ($k =~ /^(?:enum|struct|union)$/ && ($tok[$i + 1] // '') =~ /^\w+$/ && ($tok[$i + 2] // '') eq '{') {
      push @names, $tok[$i + 1];
    }
    if ($k eq 'enum' && ($tok[$i + 1] // '') =~ /^(?:\w+)$/ && ($tok[$i + 2] // '') eq '{'
        || $k eq 'enum' && ($tok[$i + 1] // '') eq '{') {
      my $j = $tok[$i + 1] eq '{' ? $i + 2 : $i + 3;
      my ($d, $expect) = (0, 1);    # enumerators follow `{` and `,` at depth 0
      for (; $j < @tok && !($tok[$j] eq '}' && $d == 0); $j++) {
        my $e = $tok[$j];
        if ($e =~ /^[({\[]$/) { $d++; } elsif ($e =~ /^[)}\]]$/) { $d--; }
        elsif ($d == 0 && $e eq ',') { $expect = 1; next; }
        elsif ($d == 0 && $expect && $e =~ /^\w+$/) { push @names, $e; }
        $expect = 0;
      }
      next;
    }
    if ($k eq 'typedef') {
      my ($d, $last) = (0);
      for (my $j = $i + 1; $j < @tok; $j++) {
        my $e = $tok[$j];
        if ($e =~ /^[({\[]$/) { $d++; } elsif ($e =~ /^[)}\]]$/) { $d--; }
        elsif ($d == 0 && $e eq ';') { push @names, $last if defined $last; last; }
        elsif ($d == 0 && $e =~ /^\w+$/) { $last = $e; }
      }
      next;
    }
    next unless $k eq 'static' || $static_macro{$k};
    my $last;
    for ($i++; $i < @tok; $i++) {
      my $t2 = $tok[$i];
      if (($t2 eq '__attribute__' || $t2 eq '_Atomic' || $t2 eq '_Alignas') && ($tok[$i + 1] // '') eq '(') {
        my $p = 0;    # skip the balanced parentheses that follow
        for ($i++; $i < @tok; $i++) {
          $p++ if $tok[$i] eq '(';
          last if $tok[$i] eq ')' && --$p == 0;
        }
        next;
      }
      last if $t2 =~ /^[(\[=;,{]$/;
      $last = $t2 if $t2 =~ /^\w+$/;
    }
    $i--;
    push @names, $last if defined $last;
  }
  my %u;
  return grep { !$u{$_}++ } @names;
}
my (%defined_in, %renames);
for my $f (keys %text) {
  next if $is_instance{$f};    # a template's names are its includers'
  for my $name (file_names($text{$f})) { $defined_in{$name}{$f} = 1; }
  next unless $is_source{$f};
  for my $h (@{ $reaches{$f} }) { $defined_in{$_}{$f} = 1 for file_names($text{$h}); }
}
for my $name (keys %defined_in) {
  my @in = keys %{ $defined_in{$name} };
  next if @in < 2;
  for my $f (grep { $is_source{$_} } @in) {
    (my $stem = basename($f)) =~ s/\.c$//;
    $renames{$f}{$name} = "${stem}_$name";
  }
}

# Replaces identifiers outside comments and string literals.
sub rename_idents {
  my ($t, $map) = @_;
  $t =~ s{(/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\b(\w+)\b}
         {defined $1 ? $1 : exists $map->{$2} ? $map->{$2} : $2}gse;
  return $t;
}

# ---- emit
# The body is a list of segments [region, text]; a region is switched only
# where code of another region follows (a switch around nothing but comments
# and macros would leave clang an empty attribute region, which it warns of).
my (@hoisted, %hoisted_seen, %emitted, @segs);
my $cond = '';    # condition of the source being emitted
my $source = '';  # the source being emitted
sub out { push @segs, [@_] if $_[1] ne ''; }
sub cond_of {
  my ($f) = @_;
  for my $c (@conds) { return $c->{cond} if $f =~ $c->{re}; }
  return '';
}

sub region_open {
  my ($r) = @_;
  return '' if $r eq '';
  return "#if defined(__clang__)\n"
    . "#pragma clang attribute push(__attribute__((target(\"$r\"))), apply_to = function)\n"
    . "#elif defined(__GNUC__)\n#pragma GCC push_options\n#pragma GCC target(\"$r\")\n"
    . "#pragma GCC optimize(\"no-ipa-ra\")\n#endif\n";
}
sub region_close {
  my ($r) = @_;
  return '' if $r eq '';
  return "#if defined(__clang__)\n#pragma clang attribute pop\n"
    . "#elif defined(__GNUC__)\n#pragma GCC pop_options\n#endif\n";
}

sub has_guard {
  my ($f) = @_;
  return $text{$f} =~ /\A(?:\s|\/\*.*?\*\/|\/\/[^\n]*)*#[ \t]*ifndef[ \t]+(\w+)\s*\n[ \t]*#[ \t]*define[ \t]+\1\b/s;
}

# Emits file $f (code of region $cur) with its local includes inlined.
sub expand {
  my ($f, $cur) = @_;
  $emitted{$f}{ $is_instance{$f} ? "\@$source" : $cond } = 1;
  my $t = $text{$f};
  my $map = $renames{ $is_instance{$f} ? $source : $f };
  $t = rename_idents($t, $map) if $map;
  my @lines = split /\n/, $t, -1;
  pop @lines if @lines && $lines[-1] eq '';
  # The include guard of a header is not a condition for hoisting.
  my $guard = !$is_source{$f}
    && $t =~ /\A(?:\s|\/\*.*?\*\/|\/\/[^\n]*)*#[ \t]*ifndef[ \t]+(\w+)\s*\n[ \t]*#[ \t]*define[ \t]+\1\b/s;
  my ($depth, $res, $dir) = (0, '', dirname($f));
  for (my $i = 0; $i < @lines; $i++) {
    my $l = $lines[$i];
    if ($cur ne '' && $l =~ /^[ \t]*#[ \t]*ifndef[ \t]+__\w+__[ \t]*$/
        && ($lines[$i + 1] // '') =~ /^[ \t]*#[ \t]*error\b/
        && ($lines[$i + 2] // '') =~ /^[ \t]*#[ \t]*endif\b/) {
      $res .= "/* (ISA guard dropped: the target region stands for the tier's flags) */\n";
      $i += 2;
      next;
    }
    if ($l =~ /^[ \t]*#[ \t]*if/) { $depth++; }
    elsif ($l =~ /^[ \t]*#[ \t]*endif/) { $depth--; }
    my $top = $depth - ($guard ? 1 : 0) <= 0;
    if ($l =~ /^[ \t]*#[ \t]*include[ \t]*"([^"]+)"/ && -f norm("$dir/$1")) {
      my $h = norm("$dir/$1");
      # A header without an include guard is made to be included again (with
      # other macros set: tier_declarations.h), so it is inlined every time.
      # One inlined under another source condition (x86 or AArch64 files) may
      # be compiled out, so it is inlined again; its guard keeps one copy.
      my $seen = $is_instance{$h} ? $emitted{$h}{"\@$source"} : $emitted{$h}{$cond} || $emitted{$h}{''};
      if ($seen && has_guard($h)) { $res .= "/* #include \"$1\": above */\n"; next; }
      out($cur, $res);
      $res = '';
      my $hr = $is_instance{$h} ? $region{$source} : region_of($h, $cond);
      # A header's static inline helpers and tables may go unused by a file, as in the
      # file-by-file build (where clang does not warn of them in headers).
      out($hr, "/* ---- $h ---- */\n#pragma GCC diagnostic push\n"
          . "#pragma GCC diagnostic ignored \"-Wunused-function\"\n"
          . "#pragma GCC diagnostic ignored \"-Wunused-const-variable\"\n");
      expand($h, $hr);
      out($hr, "#pragma GCC diagnostic pop\n/* ---- end of $h ---- */\n");
      next;
    }
    if ($top && $l =~ /^[ \t]*#[ \t]*include[ \t]*([<"][^>"]+[>"])/) {
      push @hoisted, [$1, $cond] unless $hoisted_seen{"$1 "} || $hoisted_seen{"$1 $cond"}++;
      next;
    }
    $res .= "$l\n";
  }
  out($cur, $res);
}

for my $f (map { norm($_) } @sources) {
  my $r = $region{$f};
  my @nowarn = map { /^-Wno-(.+)$/ ? $1 : () } flags_of($f);
  $cond = cond_of($f);
  $source = $f;
  out($r, "\n/* ======== $f ======== */\n");
  out($r, "#if $cond\n") if $cond ne '';
  out($r, join '', "#pragma GCC diagnostic push\n",
      map { "#pragma GCC diagnostic ignored \"-W$_\"\n" } @nowarn) if @nowarn;
  expand($f, $r);
  out($r, "#pragma GCC diagnostic pop\n") if @nowarn;
  my %macros;
  for my $t (map { $text{$_} } $f, @{ $reaches{$f} }) {
    $macros{$1} = 1 while $t =~ /^[ \t]*#[ \t]*define[ \t]+(\w+)/mg;
  }
  out($r, join '', map { "#undef $_\n" } sort keys %macros);
  push @segs, ['barrier', $cond ne '' ? "#endif /* $cond */\n" : ''];
}

my ($body, $open) = ('', '');
for my $s (@segs) {
  my ($r, $t) = @$s;
  if ($r eq 'barrier') {    # the end of a source: its region ends with it
    $body .= region_close($open) . $t;
    $open = '';
    next;
  }
  if ($r ne $open && code_only($t) =~ /\S/) {
    $body .= region_close($open) . region_open($r);
    $open = $r;
  }
  $body .= $t;
}
$body .= region_close($open);

my $hdr = -f 'include/utfx.h' ? slurp('include/utfx.h') : '';
my @v = map { $hdr =~ /#define UTFX_VERSION_$_ (\d+)/ ? $1 : '?' } qw(MAJOR MINOR PATCH);
open my $fh, '>', "$out.tmp" or die "amalgamate: $out.tmp: $!\n";
print $fh <<"EOF";
/* utfx $v[0].$v[1].$v[2], single-file build: every source of the library in one
 * translation unit. Generated by tools/amalgamate.pl (`make amalgamate`) from
 * the files named in the ======== banners below; do not edit, edit those.
 *
 * Build: put utfx.c and utfx.h together and compile utfx.c with any C11
 * compiler, no special flags:   cc -O2 -c utfx.c
 * On x86-64 with gcc or clang it keeps every kernel tier (scalar, avx2,
 * avx512), each compiled for its ISA by a target pragma, and picks the best one
 * the CPU supports at run time, exactly like the library build. Do not add
 * -mavx/-march=native: the dispatcher must stay baseline code (define
 * UTFX_ALLOW_GLOBAL_ISA_FLAGS to build for your CPU only anyway). */
EOF
print $fh <<'EOF';
#if defined(__x86_64__) && !defined(__GNUC__) && !defined(UTFX_NO_SIMD)
#define UTFX_NO_SIMD 1 /* the SIMD tiers need gcc's or clang's target pragmas */
#endif
EOF
for my $h (@hoisted) {
  my ($inc, $c) = @$h;
  print $fh $c ne '' ? "#if $c\n#include $inc\n#endif\n" : "#include $inc\n";
}
print $fh "\n#if defined(__GNUC__) || defined(__clang__)\n#pragma GCC visibility push(hidden)\n#endif\n";
print $fh $body;
print $fh "\n#if defined(__GNUC__) || defined(__clang__)\n#pragma GCC visibility pop\n#endif\n";
close $fh or die "amalgamate: $out.tmp: $!\n";
rename "$out.tmp", $out or die "amalgamate: $out: $!\n";
