/*
 * targets/transfer.c - two bank accounts, each behind its own mutex: the
 * textbook lock-order deadlock.
 *
 * Structure: accounts 0 and 1, a balance each (plain memory, guarded by the
 * account's pthread_mutex_t, taken through <weft/sync.h>), both starting at 3.
 * Operations: transfer(direction, amount) moves `amount` (1..2) from account
 * `direction` to the other one and returns 1, or returns 0 when the source has
 * too little; balances() (final operation only) -> 10 * balance0 + balance1.
 *
 * Seeded bug (default build): transfer locks the source account, then the
 * destination, so two transfers in opposite directions take the two mutexes
 * in opposite orders (Coffman's circular wait).  Fixed build
 * (-DWEFT_TRANSFER_FIXED): always the lower-numbered account first, one global
 * lock order.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption;
 * corpus/transfer/lock-order.deadlock.bin):
 *   t0 transfer(1, 1) locks account 1 ~~preempted before locking account 0~~>
 *   t1 transfer(0, 1) (the exhausted input's arguments) locks account 0, waits
 *   for account 1 -> t0 waits for account 0: no thread can run.
 *
 * Oracle: the managed mutexes make a stall visible; the two blocked transfers
 * are checked as returning WEFT_BLOCKED, which the model (a transfer never
 * blocks) rejects: verdict "deadlock", naming who waits for which mutex and
 * who holds it.  Otherwise linearizability against two balances, with
 * balances() as the final operation (money is neither made nor lost).
 */
#include <pthread.h>
#include <stdlib.h>

#include "weft/sync.h"
#include "weft/weft.h"

#define TRANSFER_START 3     /* each account's opening balance */

enum { OP_TRANSFER, OP_BALANCES };

typedef struct account {
	pthread_mutex_t lock;
	int64_t balance;         /* guarded by lock */
} account;

typedef struct bank {
	account acct[2];
} bank;

static int64_t bank_transfer(bank *b, unsigned from, int64_t amount)
{
	unsigned to = 1 - from;
#ifdef WEFT_TRANSFER_FIXED
	unsigned first = 0, second = 1;         /* one global order: lower number first */
#else
	unsigned first = from, second = to;     /* bug: the order depends on the direction */
#endif
	weft_pthread_mutex_lock(&b->acct[first].lock);
	weft_pthread_mutex_lock(&b->acct[second].lock);
	int64_t moved = b->acct[from].balance >= amount;
	if (moved) {
		b->acct[from].balance -= amount;
		b->acct[to].balance += amount;
	}
	weft_pthread_mutex_unlock(&b->acct[second].lock);
	weft_pthread_mutex_unlock(&b->acct[first].lock);
	return moved;
}

static int64_t op_transfer(void *self, const int64_t *args)
{
	return bank_transfer(self, (unsigned)args[0], args[1]);
}

/* Runs alone after every thread returned: no lock needed. */
static int64_t op_balances(void *self, const int64_t *args)
{
	(void)args;
	bank *b = self;
	return 10 * b->acct[0].balance + b->acct[1].balance;
}

static void *bank_setup(void)
{
	bank *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	for (unsigned i = 0; i < 2; i++) {
		weft_mutex_init(&b->acct[i].lock, NULL);
		b->acct[i].balance = TRANSFER_START;
	}
	return b;
}

static void bank_teardown(void *self)
{
	bank *b = self;
	for (unsigned i = 0; i < 2; i++)
		weft_mutex_destroy(&b->acct[i].lock);
	free(b);
}

/* The model: two balances; a transfer never blocks. */
static void model_init(void *state)
{
	int64_t *balance = state;
	balance[0] = balance[1] = TRANSFER_START;
}

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	int64_t *balance = state;
	if (op == OP_BALANCES)
		return 10 * balance[0] + balance[1];
	unsigned from = (unsigned)args[0];
	if (balance[from] < args[1])
		return 0;
	balance[from] -= args[1];
	balance[1 - from] += args[1];
	return 1;
}

static const weft_model transfer_model = {
	.name = "two accounts", .state_size = 2 * sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op transfer_ops[] = {
	[OP_TRANSFER] = { .name = "transfer", .run = op_transfer, .n_args = 2,
			  .args = { { 0, 1 }, { 1, 2 } } },
	[OP_BALANCES] = { .name = "balances", .run = op_balances, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target transfer_target = {
#ifdef WEFT_TRANSFER_FIXED
	.name = "transfer_fixed",
#else
	.name = "transfer_buggy",
#endif
	.ops = transfer_ops, .n_ops = 2,
	.setup = bank_setup, .teardown = bank_teardown,
	.model = &transfer_model, .final_op = &transfer_ops[OP_BALANCES],
};
WEFT_FUZZ_TARGET(transfer_target)
