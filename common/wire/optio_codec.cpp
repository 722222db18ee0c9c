#include "common/wire/optio_codec.hpp"
