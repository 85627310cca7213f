import SharedKernel
import TerminalUI

/// The footer line after `f`.
enum FavouriteStatus {
    static func message(for result: Result<Bool, AppError>, title: String) -> StatusMessage {
        switch result {
        case .success(true): StatusMessage("Added \(title) to favourites", kind: .success)
        case .success(false): StatusMessage("Removed \(title) from favourites", kind: .success)
        case .failure(let error): StatusMessage(error.userMessage, kind: .error)
        }
    }
}
