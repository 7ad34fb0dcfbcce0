/*
 * instrument/weft_sites.h - where an instrumented access is reported: the
 * user's source line and function, not a system header's (issue 32 item 3).
 * Implemented in weft_sites.cpp; used by weft_instrument.cpp.
 *
 * A "system" file is one the user did not write: its absolute path (after
 * removing `..`) starts with /usr/lib/ or contains /usr/include/,
 * /usr/local/include/, /include/c++/, /lib/gcc/ or /lib/clang/ (glibc's and
 * libstdc++'s headers, <bits/...> among them, header-only libraries installed
 * under /usr/local, the compilers' resource headers: <stdatomic.h>).  A header
 * in the user's own tree, however it is included, is the user's: a directory
 * of the user's named c++ or bits is not taken for a system one.
 */
#ifndef WEFT_INSTRUMENT_SITES_H
#define WEFT_INSTRUMENT_SITES_H

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"

#include <string>

namespace weft_sites {

/* Is `file` a system header or a runtime library's source (above)? */
bool is_system(const llvm::DIFile *file);

/*
 * Inline, into every function of the user's, the calls to functions defined
 * in system headers (std::atomic<int>::load, a <bits/...> helper), then the
 * system calls those bring in, up to a depth and a size: so that their
 * accesses carry the user's call site as their DILocation's inlinedAt.  The
 * pass runs before any optimizer inlining, so without this an access in
 * `std::atomic<int>::load` would be one site at atomic_base.h:488 for every
 * caller.  Returns whether the module changed.
 */
bool inline_system_calls(llvm::Module &m);

/* A source location as a site names it. */
struct Where {
	std::string file;       /* the path's last component */
	unsigned line, column;
	std::string function;   /* demangled, without its parameter list */
};

/*
 * The first frame of `loc`'s inlinedAt chain (innermost first) whose file is
 * not a system one, or the innermost frame if every one is; its function is
 * the frame's DISubprogram (its linkage name demangled, else its name).
 */
Where user_frame(const llvm::DILocation *loc);

/* `name` readable: demangled if mangled, its parameter list cut. */
std::string readable(llvm::StringRef name);

}  // namespace weft_sites

#endif
