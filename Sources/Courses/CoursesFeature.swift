/// My courses and enrollment. The feature arrives with its own issue; until then the shell
/// shows an honest "not available yet" screen for its tab.
public enum CoursesFeatureStatus {
    public static let isAvailable = false
}
