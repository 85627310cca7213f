/// Sign-in and the profile. The feature arrives with its own issue; until then the shell
/// shows an honest "not available yet" screen for its tab and runs as the demo learner.
public enum ProfileFeatureStatus {
    public static let isAvailable = false
}
