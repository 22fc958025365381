// The MPI world of a command started by mpirun or srun (tilelab sweep): MPI
// is initialised only when the launcher says it started this process (its
// environment: OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK), so a plain
// `tilelab ...` never touches MPI.  One rank: rank 0 of 1.
#pragma once
#include <string>
#include <vector>

namespace tilelab::cli {

class MpiWorld {
 public:
  MpiWorld();   // MPI_Init when launched by an MPI launcher
  ~MpiWorld();  // MPI_Finalize
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Every rank's text, on rank 0 in rank order (empty on the others); a
  // barrier: rank 0 has them all only once every rank has sent.
  std::vector<std::string> gather(const std::string& mine) const;
  // Rank 0's verdict to every rank (e.g. whether the merge succeeded).
  int broadcast(int value) const;

 private:
  bool initialised_ = false;
  int rank_ = 0, size_ = 1;
};

// Whether this process was started by an MPI launcher.
bool launched_by_mpi();

}  // namespace tilelab::cli
