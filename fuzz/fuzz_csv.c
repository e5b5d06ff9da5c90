/* fuzz_csv.c - the CSV reader with metadata (src/csv.h lop_csv_read) and
 * every accessor on what it read: metadata lookup, columns, numbers. */
#include "csv.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lop_csv_t *csv;
    if (lop_csv_read(fuzz_file(data, size), &csv) != LOP_OK)
        return 0;
    for (size_t i = 0; i < csv->n_meta; i++)
        if (lop_csv_meta_get(csv, csv->meta[i].key) != csv->meta[i].value)
            abort(); /* a key read must be found again, and be the only one of its name */
    lop_csv_meta_get(csv, "unit");
    for (size_t c = 0; c < csv->n_columns; c++) {
        size_t index;
        if (lop_csv_column(csv, csv->columns[c], &index) != LOP_OK || index != c)
            abort(); /* the one column of that name */
        for (size_t r = 0; r < csv->n_rows; r++) {
            double v;
            lop_csv_number(csv, r, c, &v);
        }
    }
    lop_csv_column(csv, "p", &(size_t){0});
    lop_csv_free(csv);
    return 0;
}
