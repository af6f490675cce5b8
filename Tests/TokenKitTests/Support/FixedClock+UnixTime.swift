import Foundation
import TokenKit

extension FixedClock {
    /// A clock stopped at `seconds` since 1970: these tests name instants the way tokens
    /// do (NumericDates), so the clock is set in the same unit.
    init(unixTime seconds: Double) {
        self.init(Date(timeIntervalSince1970: seconds))
    }
}
