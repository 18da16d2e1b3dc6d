/// A display transform from an OpenColorIO config (an ACES config, a studio's own): how scene-linear
/// images are shown when the config decides it, instead of a built-in ``ViewTransform/Curve``.
///
/// Exposure (``ViewTransform/exposure``) applies to the light first; the config's processor takes it
/// from ``inputColourspace`` to ``display``'s ``view``, and its display values are the movie's (choose
/// the display that matches the movie: sRGB or Rec.1886 Rec.709 for a BT.709 movie).
public struct OpenColorIOView: Sendable, Hashable {
    /// The config's `.ocio` file.
    public var config: String
    /// The colour space the images are in; `nil` for the config's `scene_linear` role.
    public var inputColourspace: String?
    /// The display; `nil` for the config's default display.
    public var display: String?
    /// The view of the display; `nil` for the display's default view.
    public var view: String?

    /// A display transform from the config at `config`, each name the config's default unless given.
    public init(config: String, inputColourspace: String? = nil, display: String? = nil, view: String? = nil) {
        self.config = config
        self.inputColourspace = inputColourspace
        self.display = display
        self.view = view
    }

    /// The names in full: the config's defaults for those not given.
    public struct Resolved: Sendable, Hashable {
        public var inputColourspace: String
        public var display: String
        public var view: String
    }

    /// Reads the config and fills in its defaults.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings` when the config cannot be read, or names a
    ///   colour space, display or view it does not have (the error lists the ones it has).
    public func resolved() throws -> Resolved {
        let opened = try OpenColorIOConfig.open(config)
        let spaces = opened.colourspaces
        guard let input = inputColourspace ?? opened.role("scene_linear") else {
            throw FlipbookError.colourConfigLacks("a scene_linear role", in: config, choose: "colour space", spaces)
        }
        guard spaces.contains(input) else {
            throw FlipbookError.colourConfigLacks("colour space \(input)", in: config, choose: "colour space", spaces)
        }
        let displays = opened.displays
        guard let display = display ?? opened.defaultDisplay, displays.contains(display) else {
            throw FlipbookError.colourConfigLacks(
                "display \(display ?? "(default)")", in: config, choose: "display", displays)
        }
        let views = opened.views(of: display)
        guard let view = view ?? opened.defaultView(of: display), views.contains(view) else {
            throw FlipbookError.colourConfigLacks(
                "view \(view ?? "(default)") of \(display)", in: config, choose: "view", views)
        }
        return Resolved(inputColourspace: input, display: display, view: view)
    }

    /// The processor the config makes for these names.
    func processor() throws -> OpenColorIOProcessor {
        let names = try resolved()
        return try OpenColorIOConfig.open(config).processor(
            input: names.inputColourspace, display: names.display, view: names.view)
    }
}
