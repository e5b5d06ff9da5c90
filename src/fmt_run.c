/* fmt_run.c - the run's metadata lines of every lopbench file (fmt_run.h). */
#include "fmt_run.h"

#include <stdio.h>
#include <stdlib.h>

#include "out.h"

/* getenv, or what the file says when Slurm did not set the variable. */
static const char *slurm_env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : "unknown";
}

void lop_run_meta_slurm(lop_run_meta_t *m)
{
    m->slurm[0] = '\0';
    if (!getenv("SLURM_JOB_ID"))
        return;
    snprintf(m->slurm, sizeof m->slurm, "job %s, nodes %s, partition %s",
             slurm_env("SLURM_JOB_ID"), slurm_env("SLURM_JOB_NODELIST"),
             slurm_env("SLURM_JOB_PARTITION"));
}

void lop_run_meta_hosts_write(lop_csv_writer_t *w, const lop_run_meta_t *m)
{
    lop_csv_meta(w, "host", "%s", m->host);
    lop_csv_meta(w, "hosts", "%s", m->hosts ? m->hosts : "unknown (not gathered)");
    if (m->slurm[0])
        lop_csv_meta(w, "slurm", "%s", m->slurm);
}

void lop_run_meta_write(lop_csv_writer_t *w, const lop_run_meta_t *m)
{
    char num[LOP_OUT_NUM_LEN]; /* metadata numbers are exact, like the cells */
    lop_csv_meta(w, "transport", "%s", m->transport);
    lop_csv_meta(w, "transport_choice", "%s", m->transport_choice);
    lop_csv_meta(w, "device", "%s", m->device);
    lop_csv_meta(w, "ranks", "%d", m->ranks);
    lop_csv_meta(w, "oversubscribed", "%s", m->oversubscribed ? "yes" : "no");
    lop_csv_meta(w, "repetitions", "%ld", m->reps);
    lop_csv_meta(w, "warmup", "%ld", m->warmup);
    lop_csv_meta(w, "idle_us", "%s", lop_out_format_csv(num, m->idle_us));
    lop_csv_meta(w, "max_post", "%ld", m->max_post);
    lop_csv_meta(w, "timer", "%s", m->timer);
    lop_csv_meta(w, "timer_calibration_s", "%s", lop_out_format_csv(num, m->timer_calibration_s));
    lop_csv_meta(w, "date", "%s", m->date);
    lop_run_meta_hosts_write(w, m);
    if (m->congest) { /* measured while the congestors sent: the loaded L(p), o(p) */
        lop_csv_meta(w, "congest", "%s", m->congest);
        lop_csv_meta(w, "congest_cores", "%s", m->congest_cores);
        lop_csv_meta(w, "congest_traffic", "%s", m->congest_traffic);
    }
    lop_csv_meta(w, "unit", "us");
}
