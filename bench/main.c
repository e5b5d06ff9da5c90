/* lopbench - placeholder until its issue lands: prints help, does nothing else. */
#include <stdio.h>
#include <string.h>

#include "lop.h"

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        printf("Usage: lopbench [options]\n(not implemented yet in lop %s)\n", LOP_VERSION);
        return 0;
    }
    fprintf(stderr, "lopbench: not implemented yet\n");
    return 2;
}
