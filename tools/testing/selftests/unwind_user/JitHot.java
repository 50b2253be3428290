// SPDX-License-Identifier: GPL-2.0
// java_jit.sh's program: a hot leaf under a 20-deep recursion, for the
// number of milliseconds its argument says; then "rounds N".
public class JitHot {
	static int leaf(int n) {
		int s = 0;
		for (int i = 0; i < 2000; i++)
			s += (i * n) & 7;
		return s;
	}

	static int rec(int d, int n) {
		return d > 0 ? rec(d - 1, n) + 1 : leaf(n);
	}

	public static void main(String[] args) {
		long end = System.currentTimeMillis() + Long.parseLong(args[0]);
		long rounds = 0, sink = 0;

		while (System.currentTimeMillis() < end) {
			for (int k = 0; k < 20; k++)
				sink += rec(20, k);
			rounds++;
		}
		System.out.println("rounds " + rounds + " " + (sink & 1));
	}
}
