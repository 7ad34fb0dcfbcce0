/*
 * runner/impl_model.h - the implementation itself as the sequential model
 * (Lincheck's default), for targets that declare no weft_model.
 *
 * A state is the sequence of operations applied so far; applying one more sets
 * up a fresh instance, replays the sequence one call at a time on the calling
 * (unmanaged) thread, runs the new call and keeps its result.  Quadratic, and
 * the memo only merges identical sequences, so it suits the small histories of
 * a fuzz scenario, not long ones.
 *
 * weft_model functions take no context, so the target is bound to the calling
 * thread for the duration of one check (runner_impl_model_bind/unbind around
 * weft_check): two runners, even on one thread, never see each other's target.
 */
#ifndef WEFT_RUNNER_IMPL_MODEL_H
#define WEFT_RUNNER_IMPL_MODEL_H

#include "weft/model.h"
#include "weft/target.h"

extern const weft_model runner_impl_model;

void runner_impl_model_bind(const weft_target *target);
void runner_impl_model_unbind(void);

#endif /* WEFT_RUNNER_IMPL_MODEL_H */
