import Foundation

extension DecodeRequest {
    /// The request for an image a ``Deflicker`` changes by `stops`: a scene-linear picture's view exposed
    /// that much more (before its tone curve), and RGB rather than stored planes, which are not scaled.
    func deflickered(byStops stops: Double?) -> DecodeRequest {
        guard let stops else { return self }
        var request = self
        request.colour?.view.exposure += stops
        request.storedPlanes = false
        return request
    }
}

extension DecodedImage {
    /// The image a request ``DecodeRequest/deflickered(byStops:)`` gave, changed by `stops` where its view did
    /// not change it already (a display-referred picture, through its sRGB curve).
    func deflickered(byStops stops: Double?) throws -> DecodedImage {
        guard let stops, !sourceColour.viewExposed else { return self }
        return try brightened(byStops: stops)
    }
}
