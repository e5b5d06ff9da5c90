/* fuzz_fitdata.c - lopfit's data reader (fit/fitdata.h lop_fitdata_read):
 * by quantity with every statistic and relative weights' times, and with a
 * forced model and any times. */
#include "fitdata.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_one(const char *path, const char *models, int positive)
{
    lop_fitdata_list_t list = {0};
    if (lop_fitdata_read(path, models, "min,avg,median", positive, &list) == LOP_OK)
        for (size_t i = 0; i < list.n; i++)
            if (list.set[i].n == 0 || !list.set[i].model)
                abort(); /* a data set without points or model */
    lop_fitdata_free(&list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    read_one(path, NULL, 1);
    read_one(path, "rtt=linear,os=ov", 0);
    return 0;
}
