package assess

// StandardTransferService moves standards in and out: CycloneDX import and export, CSV
// import and export of one requirement tree, the public standards feed and the starter
// standards.
type StandardTransferService interface{}
