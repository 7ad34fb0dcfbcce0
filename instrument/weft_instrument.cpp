/*
 * instrument/weft_instrument.cpp - the compiler pass that makes every shared
 * memory access of unmodified C (or C++) code a weft switch point.
 *
 * Use: clang -g -fpass-plugin=libweft_instrument.so -DWEFT_INSTRUMENTED ...
 * (CMake: weft_add_program(... INSTRUMENT); README "Plain memory").
 *
 * Design.  Before every load and store that may touch shared memory, and
 * every atomic instruction (atomic load/store, atomicrmw, cmpxchg), insert
 *
 *     if (weft_impl_current)                      // one TLS load and a branch
 *         weft_impl_access(&site, addr, value);   // include/weft/instrument.h
 *
 * where `site` is a private per-instruction constant descriptor built here
 * (weft_access_site: file basename, line, column, function, kind, size, memory
 * order) so that site ids come from source locations, never from addresses.
 * The location is the user's: functions of system headers are inlined into the
 * user's first and the access's inlinedAt chain walked to the user's frame
 * (weft_sites.cpp, issue 32).  The descriptors live in section weft_sites, not
 * .data, which a whole program restores before every execution (the cached
 * ids would be lost).  Without debug info the line is the instruction's index
 * in its function and the file its function's name.  `value` is the value a store writes (a pointer:
 * 1 if non-NULL), 0 otherwise.  Before every call to free() or a C++ operator
 * delete, the runtime is told the block is gone (weft_impl_free_at, with a site:
 * the race check takes it as a write of the block), so that a reused address
 * does not look shared (scheduler/access.c); after every call to malloc,
 * calloc, realloc, aligned_alloc or operator new, that the block is new
 * (weft_impl_alloc: it may reuse one freed by a library, whose free the pass
 * never saw).
 *
 * Memory orders (issue 18): after each atomic instruction of an integer of up to
 * 8 bytes or a pointer, a second guarded call gives the memory model
 * (WEFT_MEMORY, scheduler/memory.h) what <weft/atomic.h>'s macros give it
 * (scheduler/access_memory.c): a load's bits, and the load's uses then take the
 * bits the model returns (an older store's, or the same); a store's bits;
 * atomicrmw's and cmpxchg's old bits, whether they wrote and the order that
 * applied.  A `fence` (not singlethread) gets one call before it: a switch
 * point and the model's fence.  Floating-point, vector and wider atomics get no
 * post-hook: sequentially consistent.  Plain accesses are unchanged (SC).
 *
 * A plain access to a global, or through a pointer loaded from one, carries
 * WEFT_SITE_GLOBAL: its memory is possibly shared from its first access
 * (scheduler/access.c), so a window that lies before the second thread's first
 * access of a global is reachable (issue 31).
 *
 * Skipped, because they cannot be shared or are not the program's own:
 * accesses to allocas that are never captured (PointerMayBeCaptured), to
 * thread-local globals and to constants; instructions marked !nosanitize
 * (sanitizer and coverage bookkeeping: ASan's shadow checks, SanitizerCoverage's
 * counters); functions named weft_impl_* / __weft* (the inline parts of weft's own
 * headers); and functions with the disable_sanitizer_instrumentation attribute.
 *
 * Where it runs: at the start of the pipeline (registerPipelineStartEPCallback,
 * every optimization level, -O0 included), before any optimization.  Racy code
 * is exactly what an optimizer may legally rewrite: run last, the pass would
 * see `if (p) use(p)` with its two loads of p merged into one, and the bug
 * under test gone.  Inserted first, each hook is an opaque call that keeps
 * every source-level shared access where the source put it; locals that never
 * escape are still skipped (allocas, before mem2reg).  ASan and
 * SanitizerCoverage run later (OptimizerLast) and never see their own
 * bookkeeping instrumented.  A module flag ("weft.instrumented") makes a
 * second run a no-op.
 */
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "weft_sites.h"

#include <map>
#include <string>

using namespace llvm;

namespace {

/* Must match enum weft_access in include/weft/atomic.h. */
enum WeftAccess {
	kLoad = 1, kStore, kExchange, kCas, kFetchAdd, kFetchSub, kFetchAnd, kFetchOr, kFetchXor,
	kFence = 22,
};
/* Must match include/weft/instrument.h. */
constexpr unsigned kOrderPlain = 0xff;
constexpr unsigned kFlagPointer = 1;   /* the value is a pointer (recorded as NULL / non-NULL) */
constexpr unsigned kFlagRmwOther = 2;  /* an atomicrmw weft has no kind for (min, max, nand) */
constexpr unsigned kFlagFree = 4;      /* free() or delete: the site of weft_impl_free_at */
constexpr unsigned kFlagGlobal = 8;    /* a global, or memory a global points to: shared from
					  its first access (scheduler/access.c) */

/* The section of the site descriptors (a C identifier: the linker keeps it and
   defines __start_/__stop_ for it; weft_program_cc.sh leaves it alone). */
constexpr const char *kSiteSection = "weft_sites";

unsigned c_order(AtomicOrdering o)
{
	switch (o) {
	case AtomicOrdering::Monotonic: return 0;                /* memory_order_relaxed */
	case AtomicOrdering::Acquire: return 2;
	case AtomicOrdering::Release: return 3;
	case AtomicOrdering::AcquireRelease: return 4;
	case AtomicOrdering::SequentiallyConsistent: return 5;
	default: return kOrderPlain;
	}
}

/* One access to instrument: where, what kind, its pointer and the value stored. */
struct Access {
	Instruction *inst;
	Value *ptr;
	Value *stored;      /* or nullptr */
	unsigned kind;
	unsigned order;
	unsigned flags;
	Type *type;         /* the type accessed */
};

class Instrumenter {
public:
	explicit Instrumenter(Module &m) : m_(m), ctx_(m.getContext()), dl_(m.getDataLayout()) {}
	bool run();

private:
	Module &m_;
	LLVMContext &ctx_;
	const DataLayout &dl_;
	StructType *site_type_ = nullptr;
	GlobalVariable *current_ = nullptr;
	FunctionCallee access_, range_, free_, alloc_;
	FunctionCallee load_post_, store_post_, rmw_post_, fence_;   /* the memory model's */
	std::map<std::string, Constant *> strings_;

	void declare_runtime();
	bool may_be_shared(Value *ptr);
	bool from_global(Value *ptr);
	void add_ranges(MemIntrinsic *mi, SmallVectorImpl<Access> &ranges);
	bool classify(Instruction &i, Access &a);
	Constant *string(const std::string &s);
	Constant *site(const Access &a, Function &f, unsigned index);
	Value *as_u64(IRBuilder<> &b, Value *v, unsigned &flags);
	void guard_call(Instruction *before, FunctionCallee callee, ArrayRef<Value *> args);
	Value *post_hook(const Access &a, Value *site, Value *addr);
	bool instrument(Function &f);
};

void Instrumenter::declare_runtime()
{
	Type *i8p = Type::getInt8PtrTy(ctx_);
	Type *i32 = Type::getInt32Ty(ctx_);
	/* struct weft_site { const char *file; int line; weft_access kind; uint32_t id; } */
	StructType *ws = StructType::get(ctx_, {i8p, i32, i32, i32});
	/* struct weft_access_site { weft_site site; uint32_t column; uint16_t size;
	 *   uint8_t order, flags; const char *function; } */
	site_type_ = StructType::get(ctx_, {ws, i32, Type::getInt16Ty(ctx_), Type::getInt8Ty(ctx_),
					    Type::getInt8Ty(ctx_), i8p});
	current_ = m_.getGlobalVariable("weft_impl_current");
	if (!current_) {
		current_ = new GlobalVariable(m_, i8p, false, GlobalValue::ExternalLinkage, nullptr,
					      "weft_impl_current", nullptr,
					      GlobalValue::InitialExecTLSModel);
	}
	Type *vd = Type::getVoidTy(ctx_);
	access_ = m_.getOrInsertFunction("weft_impl_access", vd, PointerType::getUnqual(site_type_),
					 i8p, Type::getInt64Ty(ctx_));
	free_ = m_.getOrInsertFunction("weft_impl_free_at", vd, PointerType::getUnqual(site_type_), i8p);
	alloc_ = m_.getOrInsertFunction("weft_impl_alloc", vd, i8p);
	range_ = m_.getOrInsertFunction("weft_impl_access_range", vd,
					PointerType::getUnqual(site_type_), i8p, Type::getInt64Ty(ctx_));
	Type *sp = PointerType::getUnqual(site_type_), *i64 = Type::getInt64Ty(ctx_);
	load_post_ = m_.getOrInsertFunction("weft_impl_access_load", i64, sp, i64);
	store_post_ = m_.getOrInsertFunction("weft_impl_access_store", vd, sp, i64);
	rmw_post_ = m_.getOrInsertFunction("weft_impl_access_rmw", vd, sp, i8p, i64, i32, i32);
	fence_ = m_.getOrInsertFunction("weft_impl_access_fence", vd, sp);
}

/* False only when the memory provably belongs to this thread or never changes. */
bool Instrumenter::may_be_shared(Value *ptr)
{
	if (ptr->getType()->getPointerAddressSpace() != 0)
		return false;
	const Value *obj = getUnderlyingObject(ptr, 0);
	if (isa<AllocaInst>(obj))
		return PointerMayBeCaptured(obj, /*ReturnCaptures=*/true, /*StoreCaptures=*/true);
	if (auto *g = dyn_cast<GlobalVariable>(obj)) {
		if (g->isThreadLocal() || g->isConstant())
			return false;
		if (g->getName().startswith("__sancov") || g->getName().startswith("weft_impl"))
			return false;
	}
	return true;
}

/*
 * Is the memory a global, or reached through a pointer loaded from a global
 * (`shared->field`, `table[i]->x`)?  Such memory is possibly shared from its
 * first access: the runtime makes that first access a switch point, so a
 * window before the second thread's first access is reachable (issue 31).
 * Everything else (the heap through locals, arguments) is shared from the
 * second thread's access, as before.
 */
bool Instrumenter::from_global(Value *ptr)
{
	const Value *obj = getUnderlyingObject(ptr, 0);
	if (auto *l = dyn_cast<LoadInst>(obj))
		obj = getUnderlyingObject(l->getPointerOperand(), 0);
	auto *g = dyn_cast<GlobalVariable>(obj);
	return g && !g->isThreadLocal();
}

unsigned rmw_kind(AtomicRMWInst::BinOp op, unsigned &flags)
{
	switch (op) {
	case AtomicRMWInst::Xchg: return kExchange;
	case AtomicRMWInst::Add: return kFetchAdd;
	case AtomicRMWInst::Sub: return kFetchSub;
	case AtomicRMWInst::And: return kFetchAnd;
	case AtomicRMWInst::Or: return kFetchOr;
	case AtomicRMWInst::Xor: return kFetchXor;
	default: flags |= kFlagRmwOther; return kExchange;
	}
}

/*
 * A memory intrinsic (memset, memcpy, memmove; struct copies and zeroing too):
 * a load of its source range and a store to its destination range, each one
 * access of the whole range (scheduler/access.c, weft_impl_access_range), each
 * only where the memory may be shared.
 */
void Instrumenter::add_ranges(MemIntrinsic *mi, SmallVectorImpl<Access> &ranges)
{
	if (mi->getMetadata("nosanitize"))
		return;
	if (auto *mt = dyn_cast<MemTransferInst>(mi))
		if (may_be_shared(mt->getRawSource()))
			ranges.push_back(Access{mi, mt->getRawSource(), mi->getLength(), kLoad,
						kOrderPlain, 0, nullptr});
	if (may_be_shared(mi->getRawDest()))
		ranges.push_back(Access{mi, mi->getRawDest(), mi->getLength(), kStore, kOrderPlain, 0,
					nullptr});
}

/*
 * A pointer accessed as an integer: clang lowers C++'s std::atomic<T *>
 * (libstdc++'s __atomic_store_n on a T * member) to i64 atomics on a bitcast
 * of the T ** address, storing ptrtoint values.  Its value must be recorded as
 * a pointer (NULL / non-NULL), never as an address (determinism).  LLVM 14's
 * typed pointers say what the address points to.
 */
static bool holds_pointer(Value *ptr, Value *stored)
{
	if (stored && isa<PtrToIntOperator>(stored))
		return true;
	while (auto *cast = dyn_cast<BitCastOperator>(ptr))   /* not GEPs: a struct's first field */
		ptr = cast->getOperand(0);
	auto *type = dyn_cast<PointerType>(ptr->getType());
	return type && !type->isOpaque() && type->getPointerElementType()->isPointerTy();
}

/* Is `i` an access to instrument?  Fills `a`. */
bool Instrumenter::classify(Instruction &i, Access &a)
{
	if (i.getMetadata("nosanitize"))
		return false;
	a = Access{&i, nullptr, nullptr, 0, kOrderPlain, 0, nullptr};
	if (auto *l = dyn_cast<LoadInst>(&i)) {
		a.ptr = l->getPointerOperand();
		a.kind = kLoad;
		a.type = l->getType();
		if (l->isAtomic())
			a.order = c_order(l->getOrdering());
	} else if (auto *s = dyn_cast<StoreInst>(&i)) {
		a.ptr = s->getPointerOperand();
		a.stored = s->getValueOperand();
		a.kind = kStore;
		a.type = a.stored->getType();
		if (s->isAtomic())
			a.order = c_order(s->getOrdering());
	} else if (auto *r = dyn_cast<AtomicRMWInst>(&i)) {
		a.ptr = r->getPointerOperand();
		a.stored = r->getValOperand();
		a.kind = rmw_kind(r->getOperation(), a.flags);
		a.type = a.stored->getType();
		a.order = c_order(r->getOrdering());
	} else if (auto *c = dyn_cast<AtomicCmpXchgInst>(&i)) {
		a.ptr = c->getPointerOperand();
		a.stored = c->getNewValOperand();
		a.kind = kCas;
		a.type = a.stored->getType();
		a.order = c_order(c->getSuccessOrdering());
	} else {
		return false;
	}
	if (a.type->isPointerTy() || holds_pointer(a.ptr, a.stored))
		a.flags |= kFlagPointer;
	/* an atomic is a switch point wherever it points: other threads see it by design */
	if (a.order != kOrderPlain)
		return true;
	if (!may_be_shared(a.ptr))
		return false;
	if (from_global(a.ptr))
		a.flags |= kFlagGlobal;
	return true;
}

Constant *Instrumenter::string(const std::string &s)
{
	auto it = strings_.find(s);
	if (it != strings_.end())
		return it->second;
	Constant *c = ConstantExpr::getPointerCast(
		IRBuilder<>(ctx_).CreateGlobalString(s, "weft.str", 0, &m_), Type::getInt8PtrTy(ctx_));
	strings_[s] = c;
	return c;
}

/* The per-site descriptor: source location if there is debug info, else function + index. */
Constant *Instrumenter::site(const Access &a, Function &f, unsigned index)
{
	weft_sites::Where at{f.getName().str(), index, 0, weft_sites::readable(f.getName())};
	if (const DILocation *loc = a.inst->getDebugLoc().get())
		at = weft_sites::user_frame(loc);   /* the user's line, not a system header's */
	Type *i32 = Type::getInt32Ty(ctx_);
	Type *i8 = Type::getInt8Ty(ctx_);
	uint64_t size = a.type ? dl_.getTypeStoreSize(a.type).getFixedSize() : 0;   /* 0: a range */
	Constant *ws = ConstantStruct::get(cast<StructType>(site_type_->getElementType(0)),
					   {string(at.file), ConstantInt::get(i32, at.line),
					    ConstantInt::get(i32, a.kind), ConstantInt::get(i32, 0)});
	Constant *init = ConstantStruct::get(site_type_,
		{ws, ConstantInt::get(i32, at.column),
		 ConstantInt::get(Type::getInt16Ty(ctx_), size > 0xffff ? 0xffff : size),
		 ConstantInt::get(i8, a.order), ConstantInt::get(i8, a.flags), string(at.function)});
	/* not constant: libweft caches the site id in it (weft_site.id) */
	auto *g = new GlobalVariable(m_, site_type_, false, GlobalValue::PrivateLinkage, init,
				     "weft.site");
	/* not .data either: a whole program's .data is restored before every execution
	   (cmake/weft_program_cc.sh), which would wipe the cached ids every time */
	g->setSection(kSiteSection);
	return g;
}

/* The stored value as the trace records it: integers zero-extended, pointers as 0/1. */
Value *Instrumenter::as_u64(IRBuilder<> &b, Value *v, unsigned &flags)
{
	Type *i64 = b.getInt64Ty();
	if (!v)
		return ConstantInt::get(i64, 0);
	Type *t = v->getType();
	if (t->isPointerTy() || (flags & kFlagPointer))   /* a pointer, maybe as an integer */
		return b.CreateZExt(b.CreateIsNotNull(v), i64);
	if (t->isIntegerTy())
		return t->getIntegerBitWidth() <= 64 ? b.CreateZExt(v, i64) : b.CreateTrunc(v, i64);
	if (t->isFloatTy() || t->isDoubleTy()) {
		unsigned bits = t->getPrimitiveSizeInBits().getFixedSize();
		return b.CreateZExt(b.CreateBitCast(v, b.getIntNTy(bits)), i64);
	}
	return ConstantInt::get(i64, 0);
}

/* if (weft_impl_current) callee(args...);  just before `before`. */
void Instrumenter::guard_call(Instruction *before, FunctionCallee callee, ArrayRef<Value *> args)
{
	IRBuilder<> b(before);
	Value *cur = b.CreateLoad(current_->getValueType(), current_, "weft.current");
	Instruction *then = SplitBlockAndInsertIfThen(b.CreateIsNotNull(cur), before, false);
	IRBuilder<> tb(then);
	tb.CreateCall(callee, args);
}

/*
 * Does the memory model see this atomic?  Integers of up to 8 bytes and
 * pointers; floating-point, vector and wider atomics stay sequentially
 * consistent (their bits do not fit the model's 64-bit messages, or the
 * model's values are integers).
 */
static bool modelled(const Access &a)
{
	if (a.order == kOrderPlain || !a.type)
		return false;
	return a.type->isPointerTy() ||
	       (a.type->isIntegerTy() && a.type->getIntegerBitWidth() <= 64);
}

/* A value's bits for the memory model: integers zero-extended, pointers whole. */
static Value *raw_bits(IRBuilder<> &b, Value *v)
{
	if (v->getType()->isPointerTy())
		return b.CreatePtrToInt(v, b.getInt64Ty());
	return b.CreateZExt(v, b.getInt64Ty());
}

/*
 * After the atomic instruction: if (weft_impl_current) the memory model's
 * post-hook (scheduler/access_memory.c).  A load's result becomes the hook's
 * (a phi of the real value and the model's, converted back to the load's type),
 * which is returned (nullptr for other instructions).
 */
Value *Instrumenter::post_hook(const Access &a, Value *site, Value *addr)
{
	Instruction *inst = a.inst;
	Instruction *next = inst->getNextNode();
	IRBuilder<> b(next);
	Value *cur = b.CreateLoad(current_->getValueType(), current_, "weft.current");
	Instruction *then = SplitBlockAndInsertIfThen(b.CreateIsNotNull(cur), next, false);
	BasicBlock *head = inst->getParent(), *hook = then->getParent(), *tail = next->getParent();
	IRBuilder<> tb(then);
	Type *i32 = tb.getInt32Ty();
	if (auto *l = dyn_cast<LoadInst>(inst)) {
		Value *read = tb.CreateCall(load_post_, {site, raw_bits(tb, l)});
		Type *t = l->getType();
		Value *back = t->isPointerTy() ? tb.CreateIntToPtr(read, t) : tb.CreateTrunc(read, t);
		PHINode *phi = PHINode::Create(t, 2, "weft.read", &tail->front());
		l->replaceUsesWithIf(phi, [hook](Use &u) {
			auto *user = dyn_cast<Instruction>(u.getUser());
			return !user || user->getParent() != hook;
		});
		phi->addIncoming(l, head);
		phi->addIncoming(back, hook);
		return phi;
	} else if (auto *s = dyn_cast<StoreInst>(inst)) {
		tb.CreateCall(store_post_, {site, raw_bits(tb, s->getValueOperand())});
	} else if (isa<AtomicRMWInst>(inst)) {
		tb.CreateCall(rmw_post_, {site, addr, raw_bits(tb, inst), ConstantInt::get(i32, 1),
					  ConstantInt::get(i32, a.order)});
	} else if (auto *c = dyn_cast<AtomicCmpXchgInst>(inst)) {
		Value *old = tb.CreateExtractValue(c, 0);
		Value *ok = tb.CreateExtractValue(c, 1);
		Value *mo = tb.CreateSelect(ok, ConstantInt::get(i32, a.order),
					    ConstantInt::get(i32, c_order(c->getFailureOrdering())));
		tb.CreateCall(rmw_post_, {site, addr, raw_bits(tb, old), tb.CreateZExt(ok, i32), mo});
	}
	return nullptr;
}

/*
 * The accesses that use `from` directly as their address, stored value or
 * length take `to` instead: their hooks must see the value the instruction now
 * uses (a pointer a weak load returned), not the real load's.
 */
static void retarget(MutableArrayRef<Access> all, Value *from, Value *to)
{
	for (Access &o : all) {
		if (o.ptr == from)
			o.ptr = to;
		if (o.stored == from)
			o.stored = to;
	}
}

/* `name` is `prefix` followed by one of `tails` (a mangled operator's variants). */
static bool one_of(StringRef name, StringRef prefix, std::initializer_list<StringRef> tails)
{
	if (!name.startswith(prefix))
		return false;
	for (StringRef tail : tails)
		if (name.drop_front(prefix.size()) == tail)
			return true;
	return false;
}

/*
 * free(p), or a global operator delete (sized, aligned, nothrow): never a
 * placement delete (_ZdlPvS_), whose pointer is no block of the allocator's.
 */
static bool frees_block(StringRef name, unsigned args)
{
	std::initializer_list<StringRef> tails = {"", "m", "St11align_val_t", "mSt11align_val_t",
						  "RKSt9nothrow_t", "St11align_val_tRKSt9nothrow_t"};
	return (name == "free" && args == 1) || one_of(name, "_ZdlPv", tails) ||
	       one_of(name, "_ZdaPv", tails);
}

/* malloc and its family, or a global operator new: never a placement new (_ZnwmPv). */
static bool allocates_block(StringRef name)
{
	std::initializer_list<StringRef> tails = {"", "RKSt9nothrow_t", "St11align_val_t",
						  "St11align_val_tRKSt9nothrow_t"};
	return name == "malloc" || name == "calloc" || name == "realloc" || name == "aligned_alloc" ||
	       one_of(name, "_Znwm", tails) || one_of(name, "_Znam", tails);
}

bool Instrumenter::instrument(Function &f)
{
	StringRef name = f.getName();
	if (f.isDeclaration() || name.startswith("weft_impl_") || name.startswith("__weft") ||
	    f.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
	    f.hasFnAttribute(Attribute::Naked))
		return false;
	SmallVector<Access, 32> accesses;
	SmallVector<CallInst *, 8> frees, allocs;
	SmallVector<Access, 8> ranges;   /* memset/memcpy/memmove: type nullptr, `stored` the length */
	SmallVector<Access, 4> fences;
	for (BasicBlock &bb : f) {
		for (Instruction &i : bb) {
			Access a;
			if (classify(i, a))
				accesses.push_back(a);
			else if (auto *fence = dyn_cast<FenceInst>(&i)) {
				if (fence->getSyncScopeID() != SyncScope::SingleThread &&
				    !fence->getMetadata("nosanitize"))
					fences.push_back(Access{fence, nullptr, nullptr, kFence,
								c_order(fence->getOrdering()), 0,
								nullptr});
			}
			else if (auto *mi = dyn_cast<MemIntrinsic>(&i))
				add_ranges(mi, ranges);
			else if (auto *call = dyn_cast<CallInst>(&i))
				if (Function *callee = call->getCalledFunction()) {
					if (frees_block(callee->getName(), call->arg_size()))
						frees.push_back(call);
					else if (allocates_block(callee->getName()))
						allocs.push_back(call);
				}
		}
	}
	unsigned index = 0;
	Type *i8p = Type::getInt8PtrTy(ctx_);
	SmallVector<Constant *, 32> sites;
	for (Access &a : accesses)
		sites.push_back(site(a, f, ++index));
	/* loads' post-hooks first: an access that uses a load's value directly (its
	   address, its stored value) must be given the model's value, wherever it is */
	for (size_t k = 0; k < accesses.size(); k++) {
		Access &a = accesses[k];
		if (modelled(a) && isa<LoadInst>(a.inst)) {
			Value *read = post_hook(a, sites[k], nullptr);
			retarget(accesses, a.inst, read);
			retarget(ranges, a.inst, read);
		}
	}
	for (size_t k = 0; k < accesses.size(); k++) {
		Access &a = accesses[k];
		IRBuilder<> b(a.inst);
		Value *value = as_u64(b, a.stored, a.flags);
		Value *addr = b.CreatePointerCast(a.ptr, i8p);
		guard_call(a.inst, access_, {sites[k], addr, value});
		if (modelled(a) && !isa<LoadInst>(a.inst))
			post_hook(a, sites[k], addr);
	}
	for (Access &a : ranges) {
		IRBuilder<> b(a.inst);
		Value *len = b.CreateZExtOrTrunc(a.stored, b.getInt64Ty());
		guard_call(a.inst, range_, {site(a, f, ++index), b.CreatePointerCast(a.ptr, i8p), len});
	}
	for (Access &a : fences)   /* a switch point and the model's fence, before it */
		guard_call(a.inst, fence_, {site(a, f, ++index)});
	for (CallInst *call : frees) {
		IRBuilder<> b(call);
		Access a{call, nullptr, nullptr, kStore, kOrderPlain, kFlagFree, nullptr};
		guard_call(call, free_, {site(a, f, ++index),
					 b.CreatePointerCast(call->getArgOperand(0), i8p)});
	}
	for (CallInst *call : allocs) {   /* after the call: its result */
		IRBuilder<> b(call->getNextNode());
		guard_call(call->getNextNode(), alloc_, {b.CreatePointerCast(call, i8p)});
	}
	return !accesses.empty() || !frees.empty() || !ranges.empty() || !fences.empty() ||
	       !allocs.empty();
}

bool Instrumenter::run()
{
	if (m_.getModuleFlag("weft.instrumented"))
		return false;
	m_.addModuleFlag(Module::Override, "weft.instrumented", 1);
	declare_runtime();
	/* tells libweft this binary holds instrumented code (scheduler/sync.c: after-release) */
	Type *i8 = Type::getInt8Ty(ctx_);
	GlobalVariable *mark = m_.getGlobalVariable("weft_impl_instrumented_module");
	if (!mark)
		mark = new GlobalVariable(m_, i8, true, GlobalValue::WeakAnyLinkage, nullptr,
					  "weft_impl_instrumented_module");
	if (mark->isDeclaration() && mark->getValueType() == i8) {  /* declared by sched.h */
		mark->setInitializer(ConstantInt::get(i8, 1));
		mark->setLinkage(GlobalValue::WeakAnyLinkage);
	}
	/* system headers' functions into the user's, so that sites name the user's lines */
	bool changed = weft_sites::inline_system_calls(m_);
	for (Function &f : m_)
		changed |= instrument(f);
	return changed;
}

struct WeftInstrumentPass : PassInfoMixin<WeftInstrumentPass> {
	PreservedAnalyses run(Module &m, ModuleAnalysisManager &)
	{
		return Instrumenter(m).run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
	}
	static bool isRequired() { return true; }   /* also at -O0 and in optnone functions */
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
	return {LLVM_PLUGIN_API_VERSION, "weft-instrument", "0.1", [](PassBuilder &pb) {
			pb.registerPipelineStartEPCallback(
				[](ModulePassManager &mpm, OptimizationLevel) {
					mpm.addPass(WeftInstrumentPass());
				});
		}};
}
