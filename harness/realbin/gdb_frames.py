# SPDX-License-Identifier: GPL-2.0
#
# make realbin: gdb's side of the comparison, sourced with gdb -x.
#   python stop_at("FUNC")  break at FUNC's first instruction, only when it
#                           is called from the main executable (not from a
#                           library, nor from the LD_AUDIT module's own libc)
#   python print_frames()   one line per frame: "GDBFRAME N PC OBJECT NAME"
#                           (PC is the return address for the callers), then
#                           "GDBSTOP REASON" for why the walk ended
import gdb


class StopFromExecutable(gdb.Breakpoint):
    def stop(self):
        caller = gdb.newest_frame().older()
        return caller is not None and gdb.solib_name(caller.pc()) is None


def stop_at(func):
    StopFromExecutable(func)


def print_frames():
    f, i, last = gdb.newest_frame(), 0, None
    while f is not None:
        pc = f.pc()
        obj = gdb.solib_name(pc) or gdb.current_progspace().filename
        print("GDBFRAME %d %#x %s %s" % (i, pc, obj, f.name() or "??"))
        last, f, i = f, f.older(), i + 1
    print("GDBSTOP %s" % gdb.frame_stop_reason_string(last.unwind_stop_reason()))
