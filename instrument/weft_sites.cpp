/*
 * instrument/weft_sites.cpp - a site names the user's code (issue 32 item 3).
 *
 * Design.  An access the pass instruments inside a system header's function
 * (C++'s std::atomic<int>::load at atomic_base.h:488, a <bits/...> helper, a
 * header-only library installed under /usr/local/include) used to be one site
 * at the header's line, whoever called it: reports then named a line of
 * libstdc++ for the user's `n.load()`, and every caller shared one site id.
 * The pass runs at the start of the pipeline, before the optimizer inlines
 * anything, so such a function is still a call there.  Two steps fix it:
 *
 * 1. inline_system_calls: every call from a user function to a function
 *    defined in a system header is inlined (LLVM's InlineFunction), and so are
 *    the system calls that inlining brings in, to a depth of 8 and callees of
 *    at most 400 instructions.  The inlined accesses now carry the user's call
 *    as their DILocation's inlinedAt; each call site gets its own sites.
 *    Nothing is inlined into system functions themselves (std::thread's
 *    _M_run is reached through a virtual call from libstdc++.so: its accesses
 *    keep their header lines, there is no user frame to name), nor weft's own
 *    weft_impl_* helpers (never instrumented).
 * 2. user_frame: the reported location is the first frame of the inlinedAt
 *    chain, innermost first, in a file that is not a system one; the innermost
 *    when all are.  Its function is that frame's DISubprogram, demangled and
 *    without its parameters ("(anonymous namespace)::tally::bump"), so that C
 *    programs' reports (no libstdc++ demangler at run time) read the same.
 *
 * Deterministic: it depends on the module alone.  Site ids hash the file's
 * basename, line, kind and column (scheduler/trace.c), so a C++ program's ids
 * change where its accesses were a header's.
 */
#include "weft_sites.h"

#include "llvm/Analysis/InlineCost.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <utility>
#include <vector>

using namespace llvm;

namespace weft_sites {

constexpr unsigned kMaxDepth = 8;          /* system calls inlined through this many levels */
constexpr unsigned kMaxCallee = 400;       /* instructions: bigger library code keeps its lines */
constexpr unsigned kMaxCaller = 20000;     /* a user function grows at most to this */

static std::string full_path(const DIFile *file)
{
	SmallString<256> path(file->getFilename());
	if (!sys::path::is_absolute(path)) {
		path = file->getDirectory();
		sys::path::append(path, file->getFilename());
	}
	sys::path::remove_dots(path, /*remove_dot_dot=*/true);
	return std::string(path.str());
}

bool is_system(const DIFile *file)
{
	if (!file)
		return false;
	std::string path = full_path(file);
	StringRef p(path);
	if (p.startswith("/usr/lib/"))
		return true;
	/* contained, not a prefix: a cross toolchain's sysroot, a GCC or libc++ in /opt;
	   never a bare "/c++/" or "/bits/", which a user's own directories may be named */
	for (StringRef part : {"/usr/include/", "/usr/local/include/", "/include/c++/", "/lib/gcc/",
			       "/lib/clang/"})
		if (p.contains(part))
			return true;
	return false;
}

static bool is_system(const Function *f)
{
	const DISubprogram *sp = f->getSubprogram();
	return sp && is_system(sp->getFile());
}

static bool is_user(const Function *f)
{
	return f->getSubprogram() && !is_system(f);
}

static bool inlinable(CallBase *call, const Function *caller)
{
	Function *callee = call->getCalledFunction();
	if (!callee || callee == caller || callee->isDeclaration() || callee->isInterposable() ||
	    !is_system(callee) || call->isMustTailCall() || call->isNoInline())
		return false;
	StringRef name = callee->getName();
	if (name.startswith("weft_impl_") || name.startswith("__weft") ||
	    callee->hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
		return false;
	if (callee->getInstructionCount() > kMaxCallee ||
	    caller->getInstructionCount() + callee->getInstructionCount() > kMaxCaller)
		return false;
	return callee->getFunctionType() == call->getFunctionType() &&
	       isInlineViable(*callee).isSuccess();
}

/* The calls of `f` to system functions, then theirs, to kMaxDepth. */
static bool inline_into(Function &f)
{
	std::vector<std::pair<WeakTrackingVH, unsigned>> work;
	for (Instruction &i : instructions(f))
		if (auto *call = dyn_cast<CallBase>(&i))
			work.emplace_back(call, 0);
	bool changed = false;
	while (!work.empty()) {
		auto [handle, depth] = work.back();
		work.pop_back();
		auto *call = dyn_cast_or_null<CallBase>(handle);
		if (!call || depth >= kMaxDepth || !inlinable(call, &f))
			continue;
		InlineFunctionInfo info;
		if (!InlineFunction(*call, info).isSuccess())
			continue;
		changed = true;
		for (CallBase *inner : info.InlinedCallSites)
			work.emplace_back(inner, depth + 1);
	}
	return changed;
}

bool inline_system_calls(Module &m)
{
	bool changed = false;
	for (Function &f : m)
		if (!f.isDeclaration() && is_user(&f))
			changed |= inline_into(f);
	return changed;
}

/* "ns::f<void (*)(int)>(int) const" -> "ns::f<void (*)(int)>" (scheduler/race.c's rule). */
static void cut_parameters(std::string &name)
{
	size_t close = name.rfind(')');
	if (close == std::string::npos)
		return;
	int depth = 0;
	for (size_t k = close + 1; k-- > 1;) {
		depth += name[k] == ')' ? 1 : name[k] == '(' ? -1 : 0;
		if (depth == 0) {
			name.resize(k);
			return;
		}
	}
}

std::string readable(StringRef name)
{
	std::string plain = demangle(name.str());
	if (plain != name)
		cut_parameters(plain);
	return plain;
}

static std::string function_of(const DILocation *loc)
{
	const DISubprogram *sp = loc->getScope()->getSubprogram();
	if (!sp)
		return "?";
	return readable(sp->getLinkageName().empty() ? sp->getName() : sp->getLinkageName());
}

Where user_frame(const DILocation *loc)
{
	const DILocation *chosen = loc;
	for (const DILocation *frame = loc; frame; frame = frame->getInlinedAt())
		if (!is_system(frame->getFile())) {
			chosen = frame;
			break;
		}
	return Where{sys::path::filename(chosen->getFilename()).str(), chosen->getLine(),
		     chosen->getColumn(), function_of(chosen)};
}

}  // namespace weft_sites
