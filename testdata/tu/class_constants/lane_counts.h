// Lane counts of two tile kinds, as a library header declares them: the
// same member name with different values.
#pragma once

namespace tiles {
struct Whole {
  static int const kActive = 32;
};
struct Quarter {
  static int const kActive = 8;
};
} // namespace tiles
