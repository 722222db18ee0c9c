#include "common/wire/stand_codec.hpp"
