#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# splat-scan.sh FILE: print every line of a kernel log that a debug kernel's
# checkers write when they find something (KASAN, UBSAN, KFENCE, lockdep,
# RCU, DEBUG_VM, kmemleak, refcount, plain WARNING/BUG/Oops), and exit 1 if
# there is one, 0 if there is none.  The kselftests' own made-up splats,
# which check that their kernel-log checks work, say "unwind_user selftest:".
grep -v 'unwind_user selftest:' "$1" | grep -E 'WARNING:|BUG:|BUG |Oops|general protection|KASAN|UBSAN|KFENCE|kmemleak: [0-9]+ new suspected|unreferenced object|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|lock held when returning|sleeping function called from invalid context|refcount_t:|list_(add|del) corruption|maple_tree|VM_BUG_ON|Kernel panic|hung_task|soft lockup' && exit 1
exit 0
