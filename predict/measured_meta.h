/*
 * measured_meta.h - the lines of lopredict --measured that say which case
 * the machine is in, series by series, for the loop and the bucket
 * (models/README.md "The loop", "The bucket") and for LoP's o << L.
 */
#ifndef LOP_MEASURED_META_H
#define LOP_MEASURED_META_H

#include "lopredict.h"

/* '# bucket:' - the model, and the round fit it prices each series with. */
void measured_bucket_print(const lopredict_opts_t *o, const lopredict_run_t *run);
/* '# duplex:' - each series' exchange X(1) against the loop's and the
 * bucket's exchange through adapters apart and shared (predict_duplex),
 * and which they take. */
void measured_duplex_print(const lopredict_opts_t *o, const lopredict_run_t *run);
/* '# ack:' - each series' ring R(P) against the loop's and the bucket's ring
 * without acknowledgements, and the acknowledgement they charge
 * (predict_ack). */
void measured_ack_print(const lopredict_opts_t *o, const lopredict_run_t *run);
/* '# overheads:' - o_s(1) + o_r(1) against the one-way time. */
void measured_overheads_print(const lopredict_opts_t *o, const lopredict_run_t *run);

#endif
