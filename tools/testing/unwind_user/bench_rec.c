// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's stack: recurse() -> rec_0() -> rec_1() ... -> rec_63() ->
 * bottom() -> ctx->bottom() in bench.c.  Built twice, once without frame
 * pointers (REC_PREFIX omit_) for the DWARF unwinders and once with them
 * (REC_PREFIX fp_) for the frame-pointer walk.
 */
#include <linux/kernel.h>

#include "bench.h"

#define CAT2(a, b)	a##b
#define CAT(a, b)	CAT2(a, b)
#define PREFIX(name)	CAT(REC_PREFIX, name)

/*
 * Keep the functions separate: no inlining, no specialised clones, and no
 * folding of functions that compile alike (gcc's ICF), since the point is
 * 64 frames, each with CFI of its own.  noipa is all of these.
 */
#define REC_ATTR	__attribute__((__noipa__))

/* After a call: the compiler must keep it a call, not a tail call. */
static __always_inline void keep_call(void)
{
	asm volatile("" ::: "memory");
}

static REC_ATTR int PREFIX(bottom)(struct bench_ctx *ctx)
{
	int ret;

	ret = ctx->bottom(ctx, (unsigned long)__builtin_return_address(0),
			  (unsigned long)__builtin_frame_address(0));
	keep_call();
	return ret;
}

/*
 * rec_N calls @next.  An array of 1 to 4 words whose address escapes, so
 * that it lives in the frame, gives the frames different sizes.
 */
#define REC(n, next)							\
static REC_ATTR int PREFIX(rec_##n)(struct bench_ctx *ctx)		\
{									\
	unsigned long pad[1 + (n) % 4];					\
	int ret;							\
									\
	pad[0] = ARRAY_SIZE(pad);					\
	asm volatile("" : : "r" (pad) : "memory");			\
	ret = PREFIX(next)(ctx);					\
	keep_call();							\
	return ret + (int)pad[0];					\
}

REC(63, bottom)
REC(62, rec_63)
REC(61, rec_62)
REC(60, rec_61)
REC(59, rec_60)
REC(58, rec_59)
REC(57, rec_58)
REC(56, rec_57)
REC(55, rec_56)
REC(54, rec_55)
REC(53, rec_54)
REC(52, rec_53)
REC(51, rec_52)
REC(50, rec_51)
REC(49, rec_50)
REC(48, rec_49)
REC(47, rec_48)
REC(46, rec_47)
REC(45, rec_46)
REC(44, rec_45)
REC(43, rec_44)
REC(42, rec_43)
REC(41, rec_42)
REC(40, rec_41)
REC(39, rec_40)
REC(38, rec_39)
REC(37, rec_38)
REC(36, rec_37)
REC(35, rec_36)
REC(34, rec_35)
REC(33, rec_34)
REC(32, rec_33)
REC(31, rec_32)
REC(30, rec_31)
REC(29, rec_30)
REC(28, rec_29)
REC(27, rec_28)
REC(26, rec_27)
REC(25, rec_26)
REC(24, rec_25)
REC(23, rec_24)
REC(22, rec_23)
REC(21, rec_22)
REC(20, rec_21)
REC(19, rec_20)
REC(18, rec_19)
REC(17, rec_18)
REC(16, rec_17)
REC(15, rec_16)
REC(14, rec_15)
REC(13, rec_14)
REC(12, rec_13)
REC(11, rec_12)
REC(10, rec_11)
REC(9, rec_10)
REC(8, rec_9)
REC(7, rec_8)
REC(6, rec_7)
REC(5, rec_6)
REC(4, rec_5)
REC(3, rec_4)
REC(2, rec_3)
REC(1, rec_2)
REC(0, rec_1)

int PREFIX(recurse)(struct bench_ctx *ctx)
{
	int ret;

	ret = PREFIX(rec_0)(ctx);
	keep_call();
	return ret;
}
