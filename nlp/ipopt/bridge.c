//go:build ipopt

// C trampolines from IPOPT's callback types to the exported Go functions of
// callbacks.go. user_data points to a uintptr_t holding a cgo.Handle.

#include <stdint.h>
#include "IpStdCInterface.h"
#include "_cgo_export.h"

static uintptr_t handle(UserDataPtr u) { return *(uintptr_t *)u; }

static Bool fesd_eval_f(Index n, Number *x, Bool new_x, Number *obj, UserDataPtr u) {
	return fesdIpoptEvalF(handle(u), n, x, obj);
}

static Bool fesd_eval_grad_f(Index n, Number *x, Bool new_x, Number *grad, UserDataPtr u) {
	return fesdIpoptEvalGrad(handle(u), n, x, grad);
}

static Bool fesd_eval_g(Index n, Number *x, Bool new_x, Index m, Number *g, UserDataPtr u) {
	return fesdIpoptEvalG(handle(u), n, x, m, g);
}

static Bool fesd_eval_jac_g(Index n, Number *x, Bool new_x, Index m, Index nele, Index *irow,
                            Index *jcol, Number *values, UserDataPtr u) {
	return fesdIpoptEvalJac(handle(u), n, x, nele, irow, jcol, values);
}

static Bool fesd_eval_h(Index n, Number *x, Bool new_x, Number obj_factor, Index m, Number *lambda,
                        Bool new_lambda, Index nele, Index *irow, Index *jcol, Number *values,
                        UserDataPtr u) {
	return fesdIpoptEvalH(handle(u), n, x, obj_factor, m, lambda, nele, irow, jcol, values);
}

static Bool fesd_intermediate(Index alg_mod, Index iter, Number obj, Number inf_pr, Number inf_du,
                              Number mu, Number d_norm, Number reg, Number alpha_du,
                              Number alpha_pr, Index ls_trials, UserDataPtr u) {
	return fesdIpoptIntermediate(handle(u), alg_mod, iter, obj, inf_pr, inf_du, mu, d_norm, reg,
	                             alpha_du, alpha_pr, ls_trials);
}

IpoptProblem fesd_ipopt_create(Index n, Number *xl, Number *xu, Index m, Number *gl, Number *gu,
                               Index nele_jac, Index nele_hess) {
	IpoptProblem p = CreateIpoptProblem(n, xl, xu, m, gl, gu, nele_jac, nele_hess, 0, fesd_eval_f,
	                                    fesd_eval_g, fesd_eval_grad_f, fesd_eval_jac_g, fesd_eval_h);
	if (p != NULL) {
		SetIntermediateCallback(p, fesd_intermediate);
	}
	return p;
}
