// Package placement assigns model variables to parameter servers the way
// TensorFlow 1.x's default replica_device_setter does with a greedy load
// balancer: variables are taken in graph order and each goes to the server
// currently holding the fewest bytes (icpe20 §5: "Each layer is assigned to
// the parameter server that is currently holding parameters with smallest
// total size (in bytes)").
//
// Ties go to the lowest-numbered server (CATALOGUE I-3). With the VGG-11
// variable list of icpe20 Fig. 23 in graph order (weights before biases) this
// reproduces the paper's 407 MB / 100 MB split.
package placement
