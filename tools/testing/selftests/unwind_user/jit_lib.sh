# SPDX-License-Identifier: GPL-2.0
#
# What node_jit.sh and java_jit.sh share; sourced, not run.

# The samples of perf data file DATA whose leaf is JIT code (anonymous
# memory, a perf map, or nothing perf knows), and how many of their chains
# end in one of the functions of the regular expression STARTS (the
# thread's start): "JIT WHOLE".
jit_chains() {	# PERF DATA STARTS
	"$1" script --no-demangle --no-inline -i "$2" -F ip,sym,dso 2>/dev/null |
	awk -v starts="^($3)\$" '
		function done_sample() {
			if (n && d[1] ~ /anon|perf-[0-9]+\.map|unknown/) {
				jit++
				if (s[n] ~ starts)
					whole++
			}
			n = 0
		}
		NF == 0 { done_sample(); next }
		{ n++; s[n] = $2; d[n] = $NF }
		END { done_sample(); printf "%d %d\n", jit, whole }'
}
