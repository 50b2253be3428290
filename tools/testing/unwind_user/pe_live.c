// SPDX-License-Identifier: GPL-2.0
/*
 * The Linux side of the live PE check.  pe/live.c, a mingw program run
 * under Wine, stops at marked points (a plain call chain, a callback from
 * msvcrt's qsort, a vectored exception handler entered through Wine's
 * exception dispatcher) and writes, for each: its registers
 * (RtlCaptureContext), the chain Wine's own unwinder gives
 * (RtlCaptureStackBackTrace), its stack and every loaded module's memory.
 *
 * This program maps those as they were, walks the stack from the captured
 * registers with kernel/unwind/pe.c, applying each frame to the registers
 * as a walk would, and compares the return addresses with Wine's, from
 * the caller of the marked point up to the end of Wine's chain (the zero
 * after RtlUserThreadStart).
 *
 * Then it walks the same stack as the kernel does: kernel/unwind/user.c
 * (walk.c), which tracks only rsp, rbp and the ip, with the frames of the
 * PE module's lookup (kernel/unwind/pe_user.c), which turns each PE frame
 * into the generic rules.  That walk may end early where a value cannot be
 * known to it (a frame register other than rbp below the topmost frame),
 * but every frame it gives must be Wine's.
 *
 * Prints TAP-like lines and the summary; exits non-zero on any difference.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/unwind_user_registry.h>

#include "../../../kernel/unwind/pe.h"
#include "fake_user.h"
#include "pe_builder.h"
#include "walk.h"

/* The module's lookup, compiled here; its headers are the test ones. */
#ifndef PR_EH_FRAME_FORMAT_PE
#define PR_EH_FRAME_FORMAT_PE	3
#endif
#include "../../../kernel/unwind/pe_user.c"

#define MAX_MODULES	24
#define MAX_FRAMES	64

struct module {
	u64			base;
	u32			size;
	char			name[64];
	u8			*mem;
	struct pe_unwind_image	img;
};

static struct module mods[MAX_MODULES];
static unsigned int nr_mods, nr_machine;

static u8 *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	long n;
	u8 *buf;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	buf = malloc(n ? n : 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	fclose(f);
	*len = n;
	return buf;
}

static struct module *module_of(u64 ip)
{
	unsigned int i;

	for (i = 0; i < nr_mods; i++)
		if (ip >= mods[i].base && ip - mods[i].base < mods[i].size)
			return &mods[i];
	return NULL;
}

static const char *where(u64 ip)
{
	static char buf[96];
	struct module *m = module_of(ip);

	if (!m)
		return "?";
	snprintf(buf, sizeof(buf), "%s+%#llx", m->name,
		 (unsigned long long)(ip - m->base));
	return buf;
}

/* Walk from @regs/@ip; return the frames found (ips[0] = @ip). */
static unsigned int walk(u64 *regs, u64 ip, u64 *ips, unsigned int *stop)
{
	unsigned int n = 0, flags = PE_UNWIND_EXACT_PC, budget;
	struct pe_unwind_frame f;
	struct module *m;
	int ret;

	*stop = 0;
	while (n < MAX_FRAMES) {
		ips[n++] = ip;
		m = module_of(ip);
		if (!m || !ip)
			break;
		/* Wine's walk has no budget: each lookup gets a walk's */
		budget = UNWIND_USER_TABLE_BUDGET;
		ret = pe_unwind_find_frame(&m->img, flags ? ip : ip - 1,
					   flags, &f, &budget);
		if (ret) {
			*stop = -ret;
			break;
		}
		if (pb_apply(&f, regs, &ip)) {
			*stop = EFAULT;
			break;
		}
		/* after a machine frame the caller's ip is where it stopped */
		flags = 0;
		if (f.flags & PE_UNWIND_FRAME_MACHINE) {
			flags = PE_UNWIND_EXACT_PC;
			nr_machine++;
		}
	}
	return n;
}

/* What the kernel's walk spent of its budget, the most in one stack. */
static unsigned int generic_spent, generic_most;

/*
 * The registry of the generic walk: the module covering @pc, looked up
 * as registry.c does, on the walk's budget.
 */
static int generic_find(unsigned long pc, unsigned int *budget,
			struct unwind_user_frame *frame)
{
	struct module *m = module_of(pc);
	unsigned int before = *budget;
	int ret;

	if (!m)
		return -ENOENT;
	if (*budget < UNWIND_USER_FORMAT_LOOKUP_COST)
		return -EOPNOTSUPP;
	ret = pe_user_find_frame(&m->img, pc, walk_lookup_flags, frame,
				 budget);
	generic_spent += before - *budget;
	return ret;
}

static u64 *generic_regs;

/* The topmost frame's other registers, DWARF-numbered, from the capture. */
static int generic_get_reg(unsigned int regno, unsigned long *val)
{
	static const u8 gpr_of_dwarf[16] = {
		0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15,
	};

	if (regno >= 16)
		return -EINVAL;
	*val = generic_regs[gpr_of_dwarf[regno]];
	return 0;
}

/*
 * The kernel's walk from the captured registers: its frames must be Wine's
 * up to where it ends.  Returns the differences; *@same counts the frames
 * that agree, *@complete whether it got to the end of Wine's chain.
 */
static unsigned int generic_walk(int id, u64 *regs, u64 ip, const u64 *trace,
				 unsigned int last, unsigned int *same,
				 bool *complete)
{
	struct walk_state st = {
		.ip = ip, .sp = regs[4], .fp = regs[5], .ws = 8, .topmost = true,
		.get_reg = generic_get_reg,
	};
	unsigned long entries[MAX_FRAMES];
	unsigned int n, i, bad = 0;

	generic_regs = regs;
	generic_spent = 0;
	n = walk_unwind(&st, generic_find, entries, MAX_FRAMES);
	generic_most = max_t(unsigned int, generic_most, generic_spent);
	*same = 0;
	for (i = 1; i < last && i < n; i++) {
		if (entries[i] == trace[i]) {
			(*same)++;
			continue;
		}
		printf("#   generic walk, frame %u: %s", i, where(trace[i]));
		printf(" != %s\n", where(entries[i]));
		bad++;
	}
	*complete = n >= last;
	printf("#   dump %d: the kernel's walk gave %u frames, %u of Wine's %u%s,",
	       id, n, *same, last - 1, *complete ? "" : " (ended early)");
	printf(" spent %u of its budget\n", generic_spent);
	return bad;
}

int main(int argc, char **argv)
{
	unsigned int generic_frames = 0, generic_complete = 0, same;
	bool complete;
	unsigned int dumps = 0, bad = 0, frames = 0, dump_bad;
	char line[4096], name[64], file[128];
	u64 regs[16] = { 0 }, regs0[16], ips[MAX_FRAMES], trace[MAX_FRAMES], ip = 0, lo, hi;
	unsigned int nt = 0, i, n, stop, last;
	unsigned long long v[2];
	const char *dir;
	FILE *f;
	size_t len;
	u8 *stack = NULL;
	int ret, id = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DUMP-DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	snprintf(line, sizeof(line), "%s/dump.txt", dir);
	f = fopen(line, "r");
	if (!f) {
		perror(line);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "dump %d", &id) == 1) {
			nr_mods = 0;
			nt = 0;
			continue;
		}
		if (!strncmp(line, "regs ", 5)) {
			char *p = line + 5;

			/* rip, then rax .. r15 in the ISA's order */
			ip = strtoull(p, &p, 16);
			for (i = 0; i < 16; i++)
				regs[i] = strtoull(p, &p, 16);
			continue;
		}
		if (!strncmp(line, "trace ", 6)) {
			char *p = line + 6, *end;

			n = strtoul(p, &end, 10);
			for (nt = 0; nt < n && nt < MAX_FRAMES; nt++)
				trace[nt] = strtoull(end, &end, 16);
			continue;
		}
		if (sscanf(line, "module %llx %llx %63s", &v[0], &v[1], name) == 3 &&
		    nr_mods < MAX_MODULES) {
			struct module *m = &mods[nr_mods++];

			m->base = v[0];
			m->size = v[1];
			snprintf(m->name, sizeof(m->name), "%s", name);
			continue;
		}
		if (sscanf(line, "stack %llx %llx", &v[0], &v[1]) != 2)
			continue;

		/* The dump is complete: map it and walk */
		dump_bad = bad;
		lo = v[0];
		hi = v[1];
		fake_user_reset();
		snprintf(file, sizeof(file), "stack-%d.bin", id);
		free(stack);
		stack = slurp(dir, file, &len);
		fake_user_map(lo, stack, len < hi - lo ? len : hi - lo);
		for (i = 0; i < nr_mods; i++) {
			enum pe_unwind_check why;

			snprintf(file, sizeof(file), "mod-%llx.bin",
				 (unsigned long long)mods[i].base);
			mods[i].mem = slurp(dir, file, &len);
			fake_user_map(mods[i].base, mods[i].mem, len);
			ret = pe_unwind_image_init(&mods[i].img, mods[i].base,
						   mods[i].size, &why);
			if (ret) {
				printf("not ok - dump %d: %s: init %d (%s)\n", id,
				       mods[i].name, ret, pe_unwind_check_str(why));
				bad++;
			}
		}
		memcpy(regs0, regs, sizeof(regs0));
		n = walk(regs, ip, ips, &stop);
		/* Wine's chain ends with a 0 after RtlUserThreadStart */
		for (last = 1; last < nt && trace[last]; last++)
			;
		for (i = 1; i < last; i++) {
			bool same = i < n && ips[i] == trace[i];

			printf("#   %2u %-26s %s%s\n", i, where(trace[i]),
			       same ? "= " : "!= ", i < n ? where(ips[i]) : "(none)");
			if (!same)
				bad++;
			else
				frames++;
		}
		bad += generic_walk(id, regs0, ip, trace, last, &same, &complete);
		generic_frames += same;
		generic_complete += complete;
		printf("%s - dump %d: %u frames compared, %u differ (walk ended: %s%u)\n",
		       bad > dump_bad ? "not ok" : "ok", id, last - 1,
		       bad - dump_bad, stop ? "-" : "", stop);
		for (i = 0; i < nr_mods; i++)
			free(mods[i].mem);
		dumps++;
	}
	fclose(f);
	free(stack);
	printf("pe-live: %u stacks, %u frames compared, %u differences, ",
	       dumps, frames + bad, bad);
	printf("%u machine frames crossed\n", nr_machine);
	printf("pe-live: the kernel's walk (user.c + pe_user.c): ");
	printf("%u frames equal to Wine's, %u of %u stacks complete; ",
	       generic_frames, generic_complete, dumps);
	printf("at most %u of its budget of %u spent\n", generic_most,
	       UNWIND_USER_TABLE_BUDGET);
	return bad || !dumps || !frames ? 1 : 0;
}
