// `BlobRef` and `Timestamp` are part of this module's API, so importing
// EventLog brings them along.
@_exported import CoreValues
