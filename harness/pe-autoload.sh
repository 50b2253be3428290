#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest, before a Wine run: unload the PE backend (guest.sh loaded
# it) and make the kernel's modprobe a script that loads it from
# $UNWIND_USER_PE_KO when asked for its alias, so that the run starts with
# no backend and the first PE registration must load it.  The guest has no
# modules installed: the real modprobe would find nothing.
#
#   pe-autoload.sh		set up
#   pe-autoload.sh --check	after the run: the alias was asked for, and
#				the module is loaded
set -u
alias=unwind-user-format-3	# PR_EH_FRAME_FORMAT_PE
script=/tmp/unwind_user_modprobe
log=/tmp/unwind_user_modprobe.log

if [ "${1:-}" = --check ]; then
	grep -qx "$alias" "$log" 2>/dev/null ||
		{ echo "pe-autoload: modprobe was never asked for $alias"; exit 1; }
	[ -d /sys/module/unwind_user_pe ] ||
		{ echo "pe-autoload: unwind_user_pe is not loaded"; exit 1; }
	echo "pe-autoload: the first PE registration loaded unwind_user_pe"
	exit 0
fi

[ -f "${UNWIND_USER_PE_KO:-}" ] || { echo "pe-autoload: no UNWIND_USER_PE_KO"; exit 1; }
busybox rmmod unwind_user_pe || { echo "pe-autoload: cannot unload unwind_user_pe"; exit 1; }
# The kernel runs "modprobe -q -- NAME", with a PATH of its own.
cat > "$script" <<EOS
#!/bin/sh
for a; do n=\$a; done
echo "\$n" >> $log
[ "\$n" = $alias ] || exit 1
exec busybox insmod '$UNWIND_USER_PE_KO'
EOS
chmod 755 "$script"
rm -f "$log"
echo "$script" > /proc/sys/kernel/modprobe
echo "pe-autoload: unwind_user_pe unloaded; modprobe is $script"
