#!/bin/sh
# Runs one cross-compiled test program under qemu-user; `make cross-test`
# hands it to prove as --exec. CROSS is the target triplet (s390x-linux-gnu,
# aarch64-linux-gnu, ...); QEMU overrides the emulator (default qemu-ARCH).
set -eu
: "${CROSS:?set CROSS to the target triplet, e.g. s390x-linux-gnu}"
arch=${CROSS%%-*}
case $arch in
  powerpc64le) arch=ppc64le ;;
  powerpc64) arch=ppc64 ;;
  arm*) arch=arm ;;
esac
QEMU=${QEMU:-qemu-$arch}
# The environment, not options, so that a test program that runs a program
# of its own arch (test_dispatch, through UTFX_TEST_EXEC) gets the same
# setup. The cross libc goes first on the library path: with multiarch
# packages (libicu72:s390x pulls libc6:s390x) the loader under -L would
# otherwise pair the cross ld.so with a different libc.so.6 and abort.
export QEMU_LD_PREFIX="/usr/$CROSS"
export QEMU_SET_ENV="LD_LIBRARY_PATH=/usr/$CROSS/lib"
export UTFX_TEST_EXEC="$QEMU"
# glibc's s390 UTF-8 <-> UTF-16/32 iconv modules (UTF8_UTF16_Z9.so, ...)
# misbehave under qemu-s390x (7.2): valid E0 A0..BF xx rejected, lone
# surrogates accepted. test_oracle_icu keeps every ICU comparison.
if [ "$arch" = s390x ]; then
  export UTFX_ORACLE_NO_ICONV="emulated s390 iconv (UTF8_UTF16_Z9 etc.) is wrong under qemu"
fi
# AArch64: the programs named in $UTFX_CROSS_NEON_ONLY (cross.mk says why) run
# on the neon tier only, unless the caller chose the tiers.
if [ "$arch" = aarch64 ] && [ -z "${UTFX_TEST_IMPLS:-}" ]; then
  case " ${UTFX_CROSS_NEON_ONLY:-} " in
    *" ${1##*/} "*) export UTFX_TEST_IMPLS=neon ;;
  esac
fi
exec "$QEMU" "$@"
