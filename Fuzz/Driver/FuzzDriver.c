// Declarations only (include/FuzzDriver.h): libFuzzer provides the driver when fuzzing.
#include "FuzzDriver.h"
